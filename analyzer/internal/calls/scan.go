package calls

import (
	"bytes"
	"slices"

	"github.com/pidlint/pidlint/internal/rules"
	"github.com/pidlint/pidlint/internal/shellcmd"
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
	IntParse                              // an integer parser's results returned as they are: return strconv.Atoi(…) (or ParseInt, ParseUint; binary.Varint, Uvarint, ReadVarint, ReadUvarint)
	ProcLiteral                           // a string literal that starts with /proc
	ProgramLiteral                        // a string literal with a probe or signal program's name in it (see package shellcmd)
	GoneLiteral                           // a string literal with TextProcessDone or TextESRCH in it, in any case
	SafeprobeLiteral                      // a string literal (an import path) with "safeprobe" in it, or the name safeprobe
	LivenessCall                          // a call of a function whose name promises "alive" (LivenessPolarity)
	IgnoreDirective                       // a //pidlint:ignore or //pidlint:file-ignore comment
)

// IgnorePrefix starts a comment that suppresses findings on its line and
// the next; FileIgnorePrefix one that suppresses them in its whole file.
const (
	IgnorePrefix     = "//" + rules.IgnoreWord
	FileIgnorePrefix = "//" + rules.FileIgnoreWord
)

// A Scan is what one file, or several together, show without types.
type Scan struct {
	Called   Role // the roles a call of the file may have, by its callee's name
	Evidence Evidence
}

// intParsers are the integer parsers of IntParse, by name.
var intParsers = []string{"Atoi", "ParseInt", "ParseUint", "Varint", "Uvarint", "ReadVarint", "ReadUvarint"}

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
			if bytes.HasPrefix(text, []byte(IgnorePrefix)) || bytes.HasPrefix(text, []byte(FileIgnorePrefix)) {
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

// mayNameProgram reports whether a string literal may make a command
// line that probes or signals a PID (shellcmd), alone or joined with
// others: one of its words (runs of letters, digits and ._-) names one of
// shellcmd.Programs, as a command or inside a script (every script probe
// starts with one), or it holds tasklist's PID filter, without which
// tasklist probes nothing.
func mayNameProgram(lit []byte) bool {
	if hasFold(lit, shellcmd.TasklistFilter) {
		return true
	}
	for i := 0; i < len(lit); {
		j := i
		for j < len(lit) && isProgramByte(lit[j]) {
			j++
		}
		if j == i {
			i++
			continue
		}
		word := lit[i:j]
		if len(word) > 4 && hasFold(word[len(word)-4:], ".exe") {
			word = word[:len(word)-4]
		}
		for _, name := range shellcmd.Programs {
			if len(word) == len(name) && hasFold(word, name) {
				return true
			}
		}
		i = j
	}
	return false
}

func isProgramByte(b byte) bool {
	return 'a' <= b|0x20 && b|0x20 <= 'z' || '0' <= b && b <= '9' || b == '.' || b == '_' || b == '-'
}
