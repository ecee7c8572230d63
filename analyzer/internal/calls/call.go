package calls

import (
	"go/ast"
	"go/types"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
)

// A Classifier says what the calls of one package do.
type Classifier struct {
	Info      *types.Info
	Safeprobe string // import path of the safeprobe package fixes call
	// Wrapper returns the wrapper fact of a function, of this package or
	// an imported one, or nil; nil: no wrapper is known.
	Wrapper func(*types.Func) *facts.Wrapper
}

// Wrapped is the role of a call of a function with a facts.Wrapper: a
// kill or Signal wrapper, declared in this package or another.
const Wrapped Role = 1 << 31

// A Call is a call with the roles of its callee and the operands rules
// read. PID and Sig are nil when the call does not have them where its
// role says (a kill with a spread argument list).
type Call struct {
	Expr *ast.CallExpr
	Fn   *types.Func
	Role Role
	// PID is whom the call asks about or signals: kill's PID,
	// FindProcess's argument, a Process method's receiver, a wrapper's
	// PID argument.
	PID ast.Expr
	// Sig is the signal it sends: kill's, Signal's, a wrapper's signal
	// argument; nil for Process.Kill.
	Sig ast.Expr
	// SigZero and SigNil: Sig is the constant 0, or nil (Signal(nil)).
	SigZero, SigNil bool
	// Wrapper is the callee's fact when Role has Wrapped.
	Wrapper *facts.Wrapper
}

// Of classifies call. Its Fn is nil when call invokes no function (a
// conversion, a function value).
func (c *Classifier) Of(call *ast.CallExpr) Call {
	fn := Callee(c.Info, call)
	if fn == nil {
		return Call{Expr: call}
	}
	k := Call{Expr: call, Fn: fn, Role: RolesOf(fn, c.Safeprobe)}
	args := call.Args
	switch {
	case k.Role&Kill != 0:
		if len(args) == 2 {
			k.PID, k.Sig = args[0], args[1]
		}
	case k.Role&SyscallKill != 0:
		// Only kill(2) is of interest among the raw syscalls.
		if len(args) >= 3 && (astq.IsPkgObj(c.Info, args[0], Syscall, "SYS_KILL") || astq.IsPkgObj(c.Info, args[0], Unix, "SYS_KILL")) {
			k.PID, k.Sig = args[1], args[2]
		}
	case k.Role&ProcessSignal != 0:
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && len(args) == 1 {
			k.PID, k.Sig = sel.X, args[0]
		}
	case k.Role&ProcessKill != 0:
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			k.PID = sel.X
		}
	case k.Role&FindProcess != 0:
		if len(args) == 1 {
			k.PID = args[0]
		}
	case k.Role == 0 && c.Wrapper != nil:
		if w := c.Wrapper(fn); w != nil {
			k.Role, k.Wrapper = Wrapped, w
			if w.PIDParam >= 0 && w.PIDParam < len(args) {
				k.PID = args[w.PIDParam]
			}
			if w.SigParam >= 0 && w.SigParam < len(args) {
				k.Sig = args[w.SigParam]
			}
		}
	}
	if k.Sig != nil {
		k.SigZero = astq.IsZero(c.Info, k.Sig)
		k.SigNil = astq.IsNilSignal(c.Info, k.Sig)
	}
	return k
}

// Probe reports whether the call asks whether a PID is alive and sends
// nothing: kill, Signal or SYS_KILL with the signal 0 (or nil),
// os.FindProcess, or a wrapper called with 0 or that always probes.
func (k Call) Probe() bool {
	switch {
	case k.Role&FindProcess != 0:
		return true
	case k.Role&(Kill|SyscallKill|ProcessSignal) != 0:
		return k.SigZero || k.SigNil
	case k.Role&Wrapped != 0:
		return k.Wrapper.SigParam < 0 || k.SigZero
	}
	return false
}

// SendsSignal reports whether the call sends a real signal: kill or
// Signal with a signal that is not 0 or nil, or Process.Kill.
func (k Call) SendsSignal() bool {
	switch {
	case k.Role&ProcessKill != 0:
		return k.PID != nil && len(k.Expr.Args) == 0
	case k.Role&(Kill|ProcessSignal) != 0:
		return k.Sig != nil && !k.SigZero && !k.SigNil
	}
	return false
}
