// Package facts holds the analysis facts pidlint passes from a package to
// its importers: what a function does with a PID. They are the contract
// between packages, whatever finds them; go vet computes and gob-encodes
// them for every dependency, so they stay small.
package facts

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Types are the fact types an analyzer that uses this package declares.
func Types() []analysis.Fact {
	return []analysis.Fact{new(Wrapper), new(HasWrappers), new(StoredPID), new(SignalsPID)}
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

// StoredPID marks a function that returns a PID read from storage, or a
// record (a struct with a PID field, an *os.Process) made from one,
// without checking that it still names the process that wrote it.
type StoredPID struct {
	Result  int    // the result that carries it
	Checked bool   // the PID was compared with 0 or 1 before it was returned
	Source  string // where it was read, for messages
}

func (*StoredPID) AFact() {}

func (f *StoredPID) String() string {
	return fmt.Sprintf("stored pid(result=%d, checked=%t)", f.Result, f.Checked)
}

// SignalsPID marks a function that sends a real signal to the PID its
// parameter holds, without verifying that it is the process meant.
type SignalsPID struct {
	PIDParam int
	SigParam int  // the parameter that becomes the signal; -1: a fixed, real one
	Checked  bool // the function compares the PID with 0 or 1 first
}

func (*SignalsPID) AFact() {}

func (f *SignalsPID) String() string {
	return fmt.Sprintf("signals pid(pid=%d, sig=%d, checked=%t)", f.PIDParam, f.SigParam, f.Checked)
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
