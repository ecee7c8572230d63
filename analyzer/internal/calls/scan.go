package calls

import (
	"bytes"
	"slices"
	"strings"
)

// This file finds, in a file's tokens alone, what Of finds with types:
// calls of the functions in roles.go's tables, by name, and the names and
// string literals that make such a call a probe. The source pre-filters
// of package analyzer are built from it.

// Evidence is what a file's names and string literals show, beyond the
// calls it makes.
type Evidence uint16

// Evidence kinds.
const (
	SysKillName      Evidence = 1 << iota // the name SYS_KILL: a raw kill(2)
	ExclName                              // the name O_EXCL: an exclusive create
	ProcessName                           // the name Process: an *os.Process
	PIDName                               // a name or string literal with "pid" in it, in any case
	IntParse                              // an integer parser's results returned as they are: return strconv.Atoi(…) (or ParseInt, ParseUint; binary.Varint, Uvarint)
	ProcLiteral                           // a string literal that starts with /proc
	ProgramLiteral                        // a string literal with a probe program's name in it (see ClassifyCommand)
	GoneLiteral                           // a string literal with TextProcessDone or TextESRCH in it, in any case
	SafeprobeLiteral                      // a string literal (an import path) with "safeprobe" in it, or the name safeprobe
	LivenessCall                          // a call of a function whose name promises "alive" (LivenessPolarity)
	IgnoreDirective                       // a //pidlint:ignore comment
)

// IgnorePrefix starts a comment that suppresses findings.
const IgnorePrefix = "//pidlint:ignore"

// A Scan is what one file, or several together, show without types.
type Scan struct {
	Called   Role // the roles a call of the file may have, by its callee's name
	Evidence Evidence
}

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
// case, or -1. It hops between the places its first letter stands, in
// either case.
func indexFold(src []byte, word string) int {
	lo, up := word[0], word[0]-'a'+'A'
	nextLo, nextUp := -2, -2 // the next places of each case at or after i; -1: none
	for i := 0; i+len(word) <= len(src); {
		if nextLo != -1 && nextLo < i {
			if nextLo = bytes.IndexByte(src[i:], lo); nextLo >= 0 {
				nextLo += i
			}
		}
		if nextUp != -1 && nextUp < i {
			if nextUp = bytes.IndexByte(src[i:], up); nextUp >= 0 {
				nextUp += i
			}
		}
		switch {
		case nextLo < 0 && nextUp < 0:
			return -1
		case nextUp < 0 || nextLo >= 0 && nextLo < nextUp:
			i = nextLo
		default:
			i = nextUp
		}
		if i+len(word) <= len(src) && hasFold(src[i+1:i+len(word)], word[1:]) {
			return i
		}
		i++
	}
	return -1
}

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
	IgnoreDirective:  {IgnorePrefix},
}

// intParsers are the integer parsers of IntParse, by name.
var intParsers = []string{"Atoi", "ParseInt", "ParseUint", "Varint", "Uvarint"}

// sysFuncs are the names of syscall's and unix's functions in the table:
// syscall.X( for any other X is a conversion (syscall.Signal(0)).
var sysFuncs = func() []string {
	var names []string
	for _, e := range table {
		if slices.Contains(e.pkgs, Syscall) {
			names = append(names, e.names...)
		}
	}
	return names
}()

// ScanSource scans the tokens of one Go file. Comments count only as
// directives; a file that does not scan is taken as far as it goes.
func ScanSource(src []byte) Scan {
	var s Scan
	// The last tokens: a call is "qual . name (" or "name (".
	var qual, name, callQual, callName []byte
	dot := false    // name is followed by "."
	opened := false // callName is followed by "(": the next token says whether it has arguments
	returned := false
	sinceReturn := -1 // tokens since the last "return"
	prev := tokEOF    // the kind of the token before this one
	for lx := (lexer{src: src}); ; {
		kind, text := lx.next()
		if kind == tokComment {
			if bytes.HasPrefix(text, []byte(IgnorePrefix)) {
				s.Evidence |= IgnoreDirective
			}
			continue
		}
		if opened {
			s.call(callQual, callName, kind != tokClose, returned)
			opened = false
		}
		if sinceReturn >= 0 {
			sinceReturn++
		}
		switch kind {
		case tokEOF:
			return s
		case tokIdent:
			s.ident(text)
			if string(text) == "return" {
				sinceReturn = 0
			}
			switch {
			case dot:
				qual, name, dot = name, text, false
			case string(name) == "func" || prev == tokClose:
				qual, name = nil, nil // "func f(" or "func (r T) f(": a declaration
			default:
				qual, name = nil, text
			}
			prev = kind
			continue
		case tokString:
			s.literal(text)
		case tokDot:
			if name != nil && !dot {
				dot = true
				continue
			}
		case tokOpen:
			if name != nil && !dot {
				callQual, callName, opened = qual, name, true
				// "return f(" or "return q.f(": the call is what is returned.
				returned = qual == nil && sinceReturn == 2 || qual != nil && sinceReturn == 4
			}
		}
		qual, name, dot, prev = nil, nil, false, kind
	}
}

// The kinds of token the scan tells apart.
const (
	tokEOF = iota
	tokIdent
	tokString
	tokComment
	tokDot
	tokOpen
	tokClose
	tokOther
)

// A lexer splits Go source into the tokens the scan needs: identifiers,
// string literals (as written), comments and a few operators. It keeps
// no positions and builds no values, which makes it several times
// cheaper than go/scanner; on valid Go it finds the same identifiers and
// literals.
type lexer struct {
	src []byte
	i   int
}

func (lx *lexer) next() (int, []byte) {
	src := lx.src
	for lx.i < len(src) && (src[lx.i] == ' ' || src[lx.i] == '\t' || src[lx.i] == '\n' || src[lx.i] == '\r') {
		lx.i++
	}
	if lx.i >= len(src) {
		return tokEOF, nil
	}
	start := lx.i
	c := src[lx.i]
	lx.i++
	switch {
	case isWordByte(c) && !('0' <= c && c <= '9'):
		for lx.i < len(src) && isWordByte(src[lx.i]) {
			lx.i++
		}
		return tokIdent, src[start:lx.i]
	case '0' <= c && c <= '9':
		for lx.i < len(src) && (isWordByte(src[lx.i]) || src[lx.i] == '.') {
			lx.i++
		}
		return tokOther, nil
	case c == '"' || c == '\'':
		lx.skipQuoted(c)
		if c == '\'' {
			return tokOther, nil
		}
		return tokString, src[start:lx.i]
	case c == '`':
		if j := bytes.IndexByte(src[lx.i:], '`'); j >= 0 {
			lx.i += j + 1
		} else {
			lx.i = len(src)
		}
		return tokString, src[start:lx.i]
	case c == '/' && lx.i < len(src) && src[lx.i] == '/':
		if j := bytes.IndexByte(src[lx.i:], '\n'); j >= 0 {
			lx.i += j
		} else {
			lx.i = len(src)
		}
		return tokComment, src[start:lx.i]
	case c == '/' && lx.i < len(src) && src[lx.i] == '*':
		if j := bytes.Index(src[lx.i+1:], []byte("*/")); j >= 0 {
			lx.i += j + 3
		} else {
			lx.i = len(src)
		}
		return tokComment, src[start:lx.i]
	case c == '.':
		return tokDot, nil
	case c == '(':
		return tokOpen, nil
	case c == ')':
		return tokClose, nil
	}
	return tokOther, nil
}

// skipQuoted moves past a string or rune literal opened by quote: to the
// closing quote not escaped, or to the end of the line.
func (lx *lexer) skipQuoted(quote byte) {
	for lx.i < len(lx.src) {
		switch lx.src[lx.i] {
		case '\\':
			lx.i += 2
			continue
		case quote:
			lx.i++
			return
		case '\n':
			return
		}
		lx.i++
	}
	lx.i = len(lx.src)
}

func (s *Scan) ident(name []byte) {
	switch string(name) {
	case "SYS_KILL":
		s.Evidence |= SysKillName
	case "O_EXCL":
		s.Evidence |= ExclName
	case "Process":
		s.Evidence |= ProcessName
	case "safeprobe":
		s.Evidence |= SafeprobeLiteral
	}
	if hasFold(name, "pid") {
		s.Evidence |= PIDName
	}
}

// call notes a call of qual.name (qual empty when unqualified);
// returned: the call is the whole of a return statement's value.
func (s *Scan) call(qual, name []byte, args, returned bool) {
	if (string(qual) == "syscall" || string(qual) == "unix") && !slices.Contains(sysFuncs, string(name)) {
		return // a conversion, syscall.Signal(0)
	}
	r := roleNames[string(name)]
	if !args {
		r &^= ProcessSignal // Signal takes the signal
	}
	s.Called |= r
	if returned && slices.Contains(intParsers, string(name)) {
		s.Evidence |= IntParse
	}
	if mayPromiseAlive(name) && LivenessPolarity(string(name)) > 0 {
		s.Evidence |= LivenessCall
	}
}

// mayPromiseAlive reports whether name holds a word of aliveWords, in
// any case: whether LivenessPolarity may be +1.
func mayPromiseAlive(name []byte) bool {
	return slices.ContainsFunc(aliveWords, func(w string) bool { return hasFold(name, w) })
}

// literal notes a string literal, as written.
func (s *Scan) literal(lit []byte) {
	if len(lit) > 1 && bytes.HasPrefix(lit[1:], []byte("/proc")) {
		s.Evidence |= ProcLiteral
	}
	if hasFold(lit, "pid") {
		s.Evidence |= PIDName
	}
	if hasFold(lit, TextProcessDone) || hasFold(lit, TextESRCH) {
		s.Evidence |= GoneLiteral
	}
	if bytes.Contains(lit, []byte("safeprobe")) {
		s.Evidence |= SafeprobeLiteral
	}
	if mayNameProgram(lit) {
		s.Evidence |= ProgramLiteral
	}
}

// hasFold reports whether the short text s holds the lower-case ASCII
// word in any case.
func hasFold[T ~string | ~[]byte](s T, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for j < len(word) && s[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}
