package calls

import (
	"bytes"
	"go/scanner"
	"go/token"
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
	IntParse                              // a call of an integer parser (strconv.Atoi, ParseInt, ParseUint; binary.Varint, Uvarint)
	ProcLiteral                           // a string literal that starts with /proc
	ProgramLiteral                        // a string literal with a probe program's name in it (see ClassifyCommand)
	GoneLiteral                           // a string literal with TextProcessDone or TextESRCH in it, in any case
	SafeprobeLiteral                      // a string literal (an import path) with "safeprobe" in it
	LivenessCall                          // a call of a function whose name promises "alive" (LivenessPolarity)
)

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
// Before it scans tokens, it looks for the bytes without which no clause
// can hold, so that most files cost a few substring searches.
type Filter struct {
	clauses  []Clause
	triggers [][]string // per clause: one of these must be in the source (lower-case: in its lower-case form)
}

// NewFilter returns a filter of the clauses.
func NewFilter(clauses ...Clause) *Filter {
	f := &Filter{clauses: clauses}
	for _, c := range clauses {
		f.triggers = append(f.triggers, triggersOf(c))
	}
	return f
}

// Match reports whether one of the clauses may hold for the files with
// the sources srcs, taken together: a clause may be met by one file's
// call and another's names.
func (f *Filter) Match(srcs ...[]byte) bool {
	var hot []int      // the clauses whose triggers all sources together show
	var lower [][]byte // the sources in lower case, made on first need
	for i, ts := range f.triggers {
		if slices.ContainsFunc(ts, func(t string) bool { return containsIn(srcs, &lower, t) }) {
			hot = append(hot, i)
		}
	}
	if len(hot) == 0 {
		return false
	}
	var s Scan
	for _, src := range srcs {
		one := ScanSource(src)
		s.Called |= one.Called
		s.Evidence |= one.Evidence
	}
	for _, i := range hot {
		if f.clauses[i].holds(s) {
			return true
		}
	}
	return false
}

// containsIn reports whether one of the sources holds t: as it is, or,
// for a trigger that starts with "~", in any case.
func containsIn(srcs [][]byte, lower *[][]byte, t string) bool {
	if fold, ok := strings.CutPrefix(t, "~"); ok {
		if *lower == nil {
			for _, src := range srcs {
				*lower = append(*lower, bytes.ToLower(src))
			}
		}
		return slices.ContainsFunc(*lower, func(b []byte) bool { return bytes.Contains(b, []byte(fold)) })
	}
	return slices.ContainsFunc(srcs, func(b []byte) bool { return bytes.Contains(b, []byte(t)) })
}

// evidenceTriggers are, per kind of evidence, substrings one of which a
// source that shows it holds ("~": in any case).
var evidenceTriggers = map[Evidence][]string{
	SysKillName:      {"SYS_KILL"},
	ExclName:         {"O_EXCL"},
	ProcessName:      {"Process"},
	PIDName:          {"~pid"},
	IntParse:         {"Atoi", "ParseInt", "ParseUint", "~varint"},
	ProcLiteral:      {"/proc"},
	GoneLiteral:      {"~" + TextProcessDone, "~" + TextESRCH},
	SafeprobeLiteral: {"safeprobe"},
	LivenessCall:     prefixed("~", aliveWords),
}

// triggersOf returns substrings one of which a source for which c holds
// has: those of a piece of evidence it needs, or else the names of the
// functions it calls.
func triggersOf(c Clause) []string {
	for ev := Evidence(1); ev != 0; ev <<= 1 {
		if c.Needs&ev != 0 && evidenceTriggers[ev] != nil {
			return evidenceTriggers[ev]
		}
	}
	var names []string
	for name, r := range roleNames {
		if r&c.Called != 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func prefixed(p string, words []string) []string {
	var out []string
	for _, w := range words {
		out = append(out, p+w)
	}
	return out
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

// ScanSource scans the tokens of one Go file. Comments do not count; a
// file that does not scan is taken as far as it goes.
func ScanSource(src []byte) Scan {
	var s Scan
	fset := token.NewFileSet()
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	// The last three tokens: a call is "qual . name (" or "name (".
	var prev [3]struct {
		tok token.Token
		lit string
	}
	pendingCall := "" // a name just followed by "(": the next token says whether it has arguments
	pendingQual := ""
	for {
		_, tok, lit := sc.Scan()
		if pendingCall != "" {
			s.call(pendingQual, pendingCall, tok != token.RPAREN)
			pendingCall = ""
		}
		switch tok {
		case token.EOF:
			return s
		case token.IDENT:
			s.ident(lit)
		case token.STRING:
			s.literal(lit)
		case token.LPAREN:
			if prev[2].tok == token.IDENT {
				pendingCall = prev[2].lit
				pendingQual = ""
				if prev[1].tok == token.PERIOD && prev[0].tok == token.IDENT {
					pendingQual = prev[0].lit
				}
			}
		}
		prev[0], prev[1] = prev[1], prev[2]
		prev[2].tok, prev[2].lit = tok, lit
	}
}

func (s *Scan) ident(name string) {
	switch name {
	case "SYS_KILL":
		s.Evidence |= SysKillName
	case "O_EXCL":
		s.Evidence |= ExclName
	case "Process":
		s.Evidence |= ProcessName
	}
	if containsFold(name, "pid") {
		s.Evidence |= PIDName
	}
}

// containsFold reports whether s holds the lower-case ASCII word sub in
// any case, without allocating.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && s[i+j]|0x20 == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

// call notes a call of qual.name (qual "" when unqualified).
func (s *Scan) call(qual, name string, args bool) {
	if (qual == "syscall" || qual == "unix") && !slices.Contains(sysFuncs, name) {
		return // a conversion, syscall.Signal(0)
	}
	r := rolesNamed(name)
	if !args {
		r &^= ProcessSignal // Signal takes the signal
	}
	s.Called |= r
	if slices.Contains(intParsers, name) {
		s.Evidence |= IntParse
	}
	if LivenessPolarity(name) > 0 {
		s.Evidence |= LivenessCall
	}
}

// literal notes a string literal, as written.
func (s *Scan) literal(lit string) {
	if len(lit) > 1 && strings.HasPrefix(lit[1:], "/proc") {
		s.Evidence |= ProcLiteral
	}
	if containsFold(lit, "pid") {
		s.Evidence |= PIDName
	}
	if containsFold(lit, TextProcessDone) || containsFold(lit, TextESRCH) {
		s.Evidence |= GoneLiteral
	}
	if strings.Contains(lit, "safeprobe") {
		s.Evidence |= SafeprobeLiteral
	}
	if mayNameProgram(lit) {
		s.Evidence |= ProgramLiteral
	}
}
