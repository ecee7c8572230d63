package pidflow

import (
	"go/ast"
	"go/types"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
)

// A Sink is a real signal sent to a PID.
type Sink struct {
	Call    *ast.CallExpr
	PID     ast.Expr // the PID, or the *os.Process signalled
	Sig     ast.Expr // nil for Process.Kill
	What    string   // the call as messages name it
	Process bool     // through an *os.Process: 0 and -1 are refused, other negatives are groups
	Checked bool     // the callee compares the PID with 0 or 1 (a facts.SignalsPID)
	ViaFact bool     // a call of a function with a facts.SignalsPID
	// Command is the program an exec.Command runs to signal PID: kill,
	// pkill or taskkill; "" for a call.
	Command string
	SigText string // the signal as messages name it, for a command
	FileArg bool   // PID is the path of a file the command reads the PID from (pkill -F)
}

// Sink returns the real signal call sends, or nil.
func (f *Flow) Sink(call *ast.CallExpr) *Sink { return sinkOf(f.cls, f.signalsFact, call) }

// sinkOf returns the real signal call sends, or nil; signals looks up the
// facts of functions that signal their parameter.
func sinkOf(cls *calls.Classifier, signals func(*types.Func) *facts.SignalsPID, call *ast.CallExpr) *Sink {
	k := cls.Of(call)
	switch {
	case k.Fn == nil:
		return nil
	case k.Role&calls.Kill != 0 && k.Sig != nil:
		if k.SendsSignal() {
			return &Sink{Call: call, PID: k.PID, Sig: k.Sig, What: k.Fn.Pkg().Name() + ".Kill"}
		}
	case k.Role&calls.ProcessSignal != 0 && k.Sig != nil:
		if k.SendsSignal() {
			return &Sink{Call: call, PID: k.PID, Sig: k.Sig, What: "Process.Signal", Process: true}
		}
	case k.Role&calls.Command != 0:
		return commandSink(cls, call, k)
	case k.Role&calls.ProcessKill != 0 && len(call.Args) == 0:
		if k.SendsSignal() {
			return &Sink{Call: call, PID: k.PID, What: "Process.Kill", Process: true}
		}
	default:
		f := signals(k.Fn)
		if f == nil || f.PIDParam >= len(call.Args) {
			return nil
		}
		s := &Sink{Call: call, PID: call.Args[f.PIDParam], What: k.Fn.Name(), Checked: f.Checked, ViaFact: true}
		if f.SigParam >= 0 {
			if f.SigParam >= len(call.Args) {
				return nil
			}
			s.Sig = call.Args[f.SigParam]
			if astq.IsZero(cls.Info, s.Sig) || astq.IsNilSignal(cls.Info, s.Sig) {
				return nil // a probe, or no signal at all
			}
		}
		return s
	}
	return nil
}
