// Package facts holds the analysis facts pidlint passes from a package to
// its importers: what a function does with a PID. They are the contract
// between packages, whatever finds them; go vet computes and gob-encodes
// them for every dependency, so they stay small.
package facts

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Types are the fact types an analyzer that uses this package declares.
func Types() []analysis.Fact {
	return []analysis.Fact{new(Wrapper), new(HasWrappers), new(FuncFlow)}
}

// Wrapper marks a function that probes a process when its signal
// parameter is 0 (or always), with the flaws of the call it wraps.
type Wrapper struct {
	Signal   bool // wraps Process.Signal (fails on Windows), not kill(2)
	SigParam int  // the parameter that becomes the signal; -1: always 0
	PIDParam int  // the parameter that becomes the PID; -1: none does
	// Bool: the function returns "probe == nil"; otherwise it returns the
	// probe's error unexamined.
	Bool bool
}

func (*Wrapper) AFact() {}

func (f *Wrapper) String() string {
	probe := "kill"
	if f.Signal {
		probe = "signal"
	}
	result := "error"
	if f.Bool {
		result = "bool"
	}
	return fmt.Sprintf("%s wrapper(sig=%d, pid=%d, %s)", probe, f.SigParam, f.PIDParam, result)
}

// HasWrappers marks a package that exports function facts, so that its
// importers know to look at their calls.
type HasWrappers struct{}

func (*HasWrappers) AFact()         {}
func (*HasWrappers) String() string { return "has wrappers" }

// FuncFlow is what a function does with PIDs, for its callers in other
// packages: what leaves it through its results and the values its
// parameters point to, which parameters reach a real signal, and what it
// checks of a parameter's PID. Parameters count the receiver first;
// paths name a place below a parameter or result (package pidflow).
type FuncFlow struct {
	Out     []Out
	Signals []Signal
	Checks  []Check
	Locks   []int  // parameters that name a file it takes a kernel lock on
	Flags   uint16 // what it does to processes and files (PL008), pidflow's flags
}

func (*FuncFlow) AFact() {}

func (f *FuncFlow) String() string {
	var b strings.Builder
	b.WriteString("pid flow(")
	for _, o := range f.Out {
		from := "read"
		if o.FromParam >= 0 {
			from = fmt.Sprintf("param %d%s", o.FromParam, o.FromPath)
		}
		at := fmt.Sprintf("result %d", o.Result)
		if o.Result < 0 {
			at = fmt.Sprintf("param %d", o.Param)
		}
		fmt.Fprintf(&b, "%s %s%s<-%s checked=%t; ", o.Kind, at, o.Path, from, o.Checked)
	}
	for _, s := range f.Signals {
		fmt.Fprintf(&b, "signals param %d%s sig=%d; ", s.Param, s.Path, s.SigParam)
	}
	for _, c := range f.Checks {
		fmt.Fprintf(&b, "checks param %d%s %#x checked=%t; ", c.Param, c.Path, c.Checks, c.Checked)
	}
	if len(f.Locks) > 0 {
		fmt.Fprintf(&b, "locks %v; ", f.Locks)
	}
	fmt.Fprintf(&b, "flags %#x)", f.Flags)
	return b.String()
}

// An Out is a value that leaves a function: through result Result (or,
// when Result is -1, below parameter Param) at Path below it.
type Out struct {
	Result, Param int
	Path          string
	Kind          OutKind
	// The value came from parameter FromParam at FromPath, or, when
	// FromParam is -1, from a read inside the function, which Source
	// describes.
	FromParam int
	FromPath  string
	Source    string
	Checked   bool // the stored PID was compared with 0 or 1
	Bounded   bool // and with a bound over 1
	Wide      bool // parsed wider than 32 bits
	Pol       int8 // an answer's polarity, an identity's check
}

// An OutKind is what a value that leaves a function is.
type OutKind uint8

const (
	StoredPID OutKind = iota // a stored PID, or data holding one
	Identity                 // the identity of the process a PID names (Pol: which check it allows)
	Answer                   // a liveness probe's answer (Pol: +1 when nil or true means alive)
	OwnPID                   // the process's own PID
)

func (k OutKind) String() string {
	switch k {
	case StoredPID:
		return "pid"
	case Identity:
		return "identity"
	case Answer:
		return "answer"
	case OwnPID:
		return "own pid"
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// A Signal is a parameter whose PID reaches a real signal.
type Signal struct {
	Param    int
	Path     string
	SigParam int    // the parameter that is the signal; -1: a real one always
	What     string // the call that sends it, for messages
	SigText  string // the signal it always sends, for messages, when SigParam is -1
	Process  bool   // through an *os.Process
	OS       uint8  // where the call that sends it is there: pidflow.OSes
}

// A Check is what a function checks of a parameter's PID.
type Check struct {
	Param   int
	Path    string
	Checks  uint8 // pidflow's identity checks
	Checked bool  // compared with 0 or 1
	Bounded bool  // compared with a bound over 1
	Wide    bool  // parsed wider than 32 bits
}

// Of returns the fact of type *T about fn: from local, the facts found in
// the pass's own package, or imported with fn's package.
func Of[T any, PT interface {
	*T
	analysis.Fact
}](pass *analysis.Pass, local map[*types.Func]PT, fn *types.Func) PT {
	fn = fn.Origin()
	if f, ok := local[fn]; ok {
		return f
	}
	if fn.Pkg() == pass.Pkg {
		return nil
	}
	f := PT(new(T))
	if pass.ImportObjectFact(fn, f) {
		return f
	}
	return nil
}

// ImportsAny reports whether one of the pass's imports exports facts.
func ImportsAny(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if pass.ImportPackageFact(imp, new(HasWrappers)) {
			return true
		}
	}
	return false
}
