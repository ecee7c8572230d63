package calls

import (
	"bytes"
	"slices"
	"strings"
)

// This file builds source pre-filters from Scan: before it scans a
// file's tokens, a Filter looks at the names before each "(" and for the
// bytes without which a piece of evidence cannot be there.

// A Clause holds for a scan that calls a function with one of the roles
// of Called (any function, when Called is 0) and shows all of Needs.
type Clause struct {
	Called Role
	Needs  Evidence
}

func (c Clause) holds(s Scan) bool {
	return (c.Called == 0 || s.Called&c.Called != 0) && s.Evidence&c.Needs == c.Needs
}

// A Filter accepts the sources for which one of its clauses may hold.
// Before it scans tokens, it looks at the names before each "(" and for
// the bytes without which a piece of evidence cannot be there, so that
// most files cost one pass over their bytes.
type Filter struct {
	clauses []Clause
}

// NewFilter returns a filter of the clauses.
func NewFilter(clauses ...Clause) *Filter { return &Filter{clauses: clauses} }

// Match reports whether one of the clauses may hold for the files with
// the sources srcs, taken together: a clause may be met by one file's
// call and another's names.
func (f *Filter) Match(srcs ...[]byte) bool {
	// What the bytes allow: a superset of what the tokens show.
	files := make([]Scan, len(srcs))
	var may Scan
	for i, src := range srcs {
		files[i] = mayCall(src)
		may.Called |= files[i].Called
		may.Evidence |= files[i].Evidence
	}
	var hot []Clause
	for _, c := range f.clauses {
		if (c.Called == 0 || may.Called&c.Called != 0) && may.Evidence&c.Needs&LivenessCall == c.Needs&LivenessCall &&
			showsAll(srcs, c.Needs&^LivenessCall) {
			hot = append(hot, c)
		}
	}
	if len(hot) == 0 {
		return false
	}
	// Scan the files that may add to a clause that may hold.
	var s Scan
	for i, src := range srcs {
		if slices.ContainsFunc(hot, func(c Clause) bool {
			return files[i].Called&c.Called != 0 || files[i].Evidence&c.Needs != 0 || showsAny(src, c.Needs)
		}) {
			one := ScanSource(src)
			s.Called |= one.Called
			s.Evidence |= one.Evidence
		}
	}
	return slices.ContainsFunc(hot, func(c Clause) bool { return c.holds(s) })
}

// mayCall returns the roles of the functions src may call, by the name
// before each "(" (in comments and strings too), and LivenessCall when
// one such name promises "alive".
func mayCall(src []byte) Scan {
	var s Scan
	for i := 0; ; i++ {
		j := bytes.IndexByte(src[i:], '(')
		if j < 0 {
			return s
		}
		i += j
		end := i
		for end > 0 && (src[end-1] == ' ' || src[end-1] == '\t') {
			end--
		}
		start := end
		for start > 0 && isWordByte(src[start-1]) {
			start--
		}
		if start == end {
			continue
		}
		name := src[start:end]
		s.Called |= roleNames[string(name)]
		if mayPromiseAlive(name) {
			s.Evidence |= LivenessCall // LivenessPolarity may be +1
		}
	}
}

// isWordByte reports whether b may be part of an identifier; any byte of
// a multi-byte character may.
func isWordByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b >= 0x80
}

// showsAll reports whether the sources hold a trigger of each piece of
// evidence in ev that has triggers.
func showsAll(srcs [][]byte, ev Evidence) bool {
	for e := Evidence(1); e != 0 && e <= ev; e <<= 1 {
		if ev&e != 0 && evidenceTriggers[e] != nil && !slices.ContainsFunc(srcs, func(src []byte) bool { return showsAny(src, e) }) {
			return false
		}
	}
	return true
}

// showsAny reports whether src holds a trigger of a piece of evidence in
// ev.
func showsAny(src []byte, ev Evidence) bool {
	for e := Evidence(1); e != 0 && e <= ev; e <<= 1 {
		if ev&e != 0 && slices.ContainsFunc(evidenceTriggers[e], func(t string) bool { return holdsTrigger(src, t) }) {
			return true
		}
	}
	return false
}

// holdsTrigger reports whether src holds t, or with a leading "~" t's
// rest in any case.
func holdsTrigger(src []byte, t string) bool {
	if word, fold := strings.CutPrefix(t, "~"); fold {
		return indexFold(src, word) >= 0
	}
	return bytes.Contains(src, []byte(t))
}

// indexFold returns the index of the lower-case ASCII word in src, in any
// case, or -1. It hops between the places where the word's rarest letter
// stands, in either case.
func indexFold(src []byte, word string) int {
	k := anchor(word)
	lo := word[k]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	nextLo, nextUp := -2, -2 // the next places of each case at or after at; -1: none
	for at := k; at < len(src); at++ {
		if nextLo != -1 && nextLo < at {
			if nextLo = bytes.IndexByte(src[at:], lo); nextLo >= 0 {
				nextLo += at
			}
		}
		if nextUp != -1 && nextUp < at {
			if nextUp = bytes.IndexByte(src[at:], up); nextUp >= 0 {
				nextUp += at
			}
		}
		switch {
		case nextLo < 0 && nextUp < 0:
			return -1
		case nextUp < 0 || nextLo >= 0 && nextLo < nextUp:
			at = nextLo
		default:
			at = nextUp
		}
		if i := at - k; i+len(word) <= len(src) && hasFold(src[i:i+len(word)], word) {
			return i
		}
	}
	return -1
}

// anchor returns the index of the rarest letter of word in Go source, by
// a rough order of English letters, rarest first.
func anchor(word string) int {
	best, rank := 0, len(letterRarity)
	for i := range len(word) {
		if r := strings.IndexByte(letterRarity, word[i]); r >= 0 && r < rank {
			best, rank = i, r
		}
	}
	return best
}

const letterRarity = "zqjxkvbywgfmhupdlcasnirteo"

// evidenceTriggers are, per kind of evidence, the substrings one of which
// a source that shows it holds ("~": in any case). Calls are found by
// mayCall.
var evidenceTriggers = map[Evidence][]string{
	SysKillName:      {"SYS_KILL"},
	ExclName:         {"O_EXCL"},
	ProcessName:      {"Process"},
	PIDName:          {"~pid"},
	IntParse:         intParsers,
	ProcLiteral:      {"/proc"},
	GoneLiteral:      {"~" + TextProcessDone, "~" + TextESRCH},
	SafeprobeLiteral: {"safeprobe"},
	IgnoreDirective:  {IgnorePrefix, FileIgnorePrefix},
}
