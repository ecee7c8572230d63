package pidflow

import (
	"go/ast"
	"go/types"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// This file answers what PL008 asks of a package that keeps a PID file:
// which calls probe a PID read from it, and what runs around its create.

// SummarizeNode adds to s the summary of the code in n, with the
// package's functions it calls; without deferred calls (which a SIGKILL
// skips) if noDefer.
func (f *Flow) SummarizeNode(s *Summary, n ast.Node, noDefer bool) { f.sum.node(s, n, noDefer) }

// CallersOf returns the package's functions that call fn.
func (f *Flow) CallersOf(fn *types.Func) []*types.Func {
	var out []*types.Func
	for _, d := range f.funcs.list {
		for c := range d.Cur.Preorder((*ast.CallExpr)(nil)) {
			if g := calls.Callee(f.pass.TypesInfo, c.Node().(*ast.CallExpr)); g != nil && g.Origin() == fn {
				out = append(out, d.Fn)
				break
			}
		}
	}
	return out
}

// BlindProbe returns the PID a liveness probe asks about (nil when the
// callee reads it itself), and whether its answer is an error (nil:
// alive) rather than a bool. It knows kill(pid, 0), Signal(0),
// os.FindProcess, safeprobe's Alive and Check, gopsutil's PidExists, and
// functions whose names promise "alive" and that answer for a PID alone:
// of this package when they probe, of others when they take one integer.
// probing memoizes readsAndProbes; a caller keeps one per package.
func (f *Flow) BlindProbe(call *ast.CallExpr, probing map[*types.Func]bool) (pid ast.Expr, errResult, ok bool) {
	info := f.pass.TypesInfo
	k := f.cls.Of(call)
	fn := k.Fn
	if fn == nil {
		return nil, false, false
	}
	switch {
	case k.Role&(calls.Kill|calls.ProcessSignal) != 0 && k.Probe():
		return k.PID, true, true
	case k.Role&calls.FindProcess != 0 && k.PID != nil:
		return k.PID, true, true
	case k.Role&calls.SafeAlive != 0 && len(call.Args) == 1:
		return call.Args[0], false, true
	case k.Role&calls.SafeCheck != 0 && len(call.Args) == 1:
		return call.Args[0], true, true
	case fn.Name() == "PidExists" && len(call.Args) >= 1:
		return call.Args[len(call.Args)-1], false, true
	}
	sig := fn.Signature()
	if f.readsAndProbes(fn, probing) {
		return nil, false, true // isRunning(pidFile): reads the PID itself
	}
	if sig.Results().Len() != 1 || calls.LivenessPolarity(fn.Name()) <= 0 {
		return nil, false, false
	}
	if s := f.sum.of[fn.Origin()]; fn.Pkg() == f.pass.Pkg && (s == nil || !s.BlindProbe || s.Verifies) {
		return nil, false, false
	}
	// Another package's alive(pid) bool: a PID alone cannot say whose the
	// process is, so it is reuse-blind whatever it asks.
	if fn.Pkg() != f.pass.Pkg && f.cls.Wrapper(fn) == nil && (sig.Params().Len() != 1 || !calls.TakesInt(fn)) {
		return nil, false, false
	}
	if !types.Identical(sig.Results().At(0).Type().Underlying(), types.Typ[types.Bool]) {
		return nil, false, false
	}
	for _, a := range call.Args {
		if astq.IsInteger(info, a, false) {
			return a, false, true
		}
	}
	return nil, false, false
}

// readsAndProbes reports whether fn is a function of this package that
// answers "alive?" with a bool (its first result) by reading a PID from
// storage and probing it, with no identity check: daemonRunning(pidFile).
func (f *Flow) readsAndProbes(fn *types.Func, probing map[*types.Func]bool) bool {
	fn = fn.Origin()
	if v, ok := probing[fn]; ok {
		return v
	}
	probing[fn] = false // no recursion
	res := fn.Signature().Results()
	d, ok := f.funcs.of(fn)
	if !ok || res.Len() == 0 || !types.Identical(res.At(0).Type(), types.Typ[types.Bool]) ||
		calls.LivenessPolarity(fn.Name()) <= 0 || f.sum.of[fn].Verifies {
		return false
	}
	for c := range d.Cur.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		if pid, _, ok := f.BlindProbe(call, probing); ok && (pid == nil || f.taint.origin(fn, pid) != nil) {
			probing[fn] = true
			return true
		}
	}
	return false
}
