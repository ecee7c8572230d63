package pidflow

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
)

// A SourceKind says how a PID was read.
type SourceKind uint8

const (
	FileRead  SourceKind = iota // read from a file (os.ReadFile, os.Open, bufio, fmt.Fscan)
	Decoded                     // a struct field decoded from such data (JSON, YAML, gob, TOML)
	Row                         // scanned from a database row
	Env                         // an environment variable
	LockFile                    // read by safeprobe.Inspect from a lock file
	Returned                    // returned by another package's function that read it
	PkillFile                   // the PID file pkill -F reads itself
)

// A Source is one read of a PID, or of data holding one, from storage.
type Source struct {
	Kind     SourceKind
	Pos, End token.Pos   // the call that read it (NoPos: another package's)
	Fn       *types.Func // the declared function that read it, in this package
	// Subject names what was read: the file's path as written, the
	// variable, the function that returned it.
	Subject string
	// Via is, for Returned, where the other package read it.
	Via string
	// Field is the struct field a decoded PID was taken from, as
	// "State.Pid"; set on the copy a Signal carries.
	Field  string
	Parent *Source // what a Decoded source was decoded from
	// PathPos and PathEnd span the file's path at the read, for fixes.
	PathPos, PathEnd token.Pos
	Lock             bool // a safeprobe lock's file: Inspect read it, or the package locks it with safeprobe

	// What the flow saw done to it, anywhere in the package (see
	// Checked, Bounded, WideParse).
	checked bool      // compared with 0 or 1, or parsed or validated by safeprobe
	bounded bool      // compared with a bound over 1, or validated by safeprobe
	wide    token.Pos // the strconv call that parsed it wider than 32 bits, if any
	// wideElsewhere: another package's function parsed it wider than 32
	// bits (its fact says so); the read is where it returned it.
	wideElsewhere bool
	key           string      // what names the file it was read from (pathKey), "" if unknown
	keyFn         *types.Func // the function whose parameter a "param:N" key is
	checks        check       // the identity checks done on it
	// base is the read a function of this package made, for a Source
	// that call returned: what was done to it there holds here too.
	base *Source
}

// Checked reports whether the PID was compared with 0 or 1 (pid > 0),
// or parsed or validated by safeprobe, where it was read or on its way.
func (s *Source) Checked() bool { return s.checked || s.base != nil && s.base.Checked() }

// Bounded reports whether the PID was compared with a bound over 1
// (pid <= math.MaxInt32), or validated by safeprobe.
func (s *Source) Bounded() bool { return s.bounded || s.base != nil && s.base.Bounded() }

// WideParse returns the strconv call (Atoi, ParseInt(s, 10, 64)) that
// parsed the PID wider than kill(2)'s 32-bit pid_t, or NoPos.
func (s *Source) WideParse() token.Pos {
	switch {
	case s.wide.IsValid():
		return s.wide
	case s.wideElsewhere:
		return s.Pos
	case s.base != nil:
		return s.base.WideParse()
	}
	return token.NoPos
}

// A check is a set of the ways a PID was verified.
type check uint8

const (
	checkIdentity check = 1 << iota // start time, safeprobe Identity, a pidfd verified
	checkName                       // name, executable or command line compared
	checkLock                       // the holder's kernel lock on the same file tested
)

// Verified reports whether the PID was checked to name the process that
// wrote it; byName, whether only by a name, executable or command line.
func (s *Source) Verified() (verified, byName bool) {
	c := s.allChecks()
	if c&(checkIdentity|checkLock) != 0 {
		return true, false
	}
	return c&checkName != 0, c&checkName != 0
}

// allChecks are the checks done on the PID here and where it was read.
func (s *Source) allChecks() check {
	if s.base == nil {
		return s.checks
	}
	return s.checks | s.base.allChecks()
}

// Describe says where the PID came from, as messages name it: "read from
// the file pidFile at pidfile.go:41", "from field State.Pid decoded at
// state.go:77", "from a database row at store.go:120".
func (s *Source) Describe(fset *token.FileSet) string {
	at := ""
	if s.Pos.IsValid() {
		p := fset.Position(s.Pos)
		at = fmt.Sprintf(" at %s:%d", filepath.Base(p.Filename), p.Line)
	}
	switch s.Kind {
	case Decoded:
		what := "decoded"
		if s.Parent != nil && s.Parent.Kind == FileRead && s.Parent.Subject != "" {
			what = "decoded from the file " + s.Parent.Subject
		}
		if s.Field != "" {
			return "from field " + s.Field + " " + what + at
		}
		return "from data " + what + at
	case Row:
		return "from a database row" + at
	case Env:
		return "from the environment variable " + s.Subject + at
	case LockFile:
		return "read from the lock file " + s.Subject + at
	case Returned:
		return "returned by " + s.Subject + at + " (" + s.Via + ")"
	case PkillFile:
		return "read by pkill -F from the file " + s.Subject
	}
	if s.Subject == "" {
		return "read from a file" + at
	}
	return "read from the file " + s.Subject + at
}

// derive returns the Source a call of the function of this package that
// read s returns: the same read, whose identity checks are its own from
// there on.
func (s *Source) derive() *Source {
	return &Source{Kind: s.Kind, Pos: s.Pos, End: s.End, Fn: s.Fn, Subject: s.Subject, Via: s.Via,
		Parent: s.Parent, PathPos: s.PathPos, PathEnd: s.PathEnd, Lock: s.Lock, key: s.key, keyFn: s.keyFn, base: s,
		wideElsewhere: s.wideElsewhere}
}
