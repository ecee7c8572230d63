package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

var wrapperRule = Rule{
	ID:      "PL006",
	Name:    "wrapper",
	Title:   "a kill or Signal wrapper called with signal 0",
	Summary: "a function that passes its parameter to kill/Signal, called with signal 0 (followed across packages through facts)",
	Text: `A function whose parameter becomes the signal of a kill or Signal call is a
probe when called with the constant 0, with the flaws of PL001 and PL002.
The rule follows such wrappers through analysis facts, across packages, and
reports at the call site whose error decides liveness. A function that
returns kill(pid, 0)'s raw error is followed the same way.`,
	Bad: `func signal(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

func running(pid int) bool { return signal(pid, 0) == nil }`,
	Good:  `func running(pid int) bool { return safeprobe.Alive(pid) }`,
	OS:    "Unix; windows for a Signal wrapper",
	Fix:   true,
	calls: []callCheck{{matches: isWrapper, check: (*site).wrapperCall}},
}

func isWrapper(r *runner, fn *types.Func) bool { return r.wrapperOf(fn) != nil }

// wrapperFact marks a function that probes a process when its signal
// parameter is 0 (or always), with the flaws of the call it wraps. It is
// small and gob-encodable: go vet computes it for every dependency.
type wrapperFact struct {
	Signal   bool // wraps Process.Signal (fails on Windows), not kill(2)
	SigParam int  // the parameter that becomes the signal; -1: always 0
	PIDParam int  // the parameter that becomes the PID; -1: none does
	// Bool: the function returns "probe == nil"; otherwise it returns the
	// probe's error unexamined.
	Bool bool
}

func (*wrapperFact) AFact() {}

func (f *wrapperFact) String() string {
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

// hasWrappersFact marks a package that exports wrapper facts, so that its
// importers know to look at their calls.
type hasWrappersFact struct{}

func (*hasWrappersFact) AFact()         {}
func (*hasWrappersFact) String() string { return "has wrappers" }

// wrapperOf returns the fact of fn, from this package or an imported one.
func (r *runner) wrapperOf(fn *types.Func) *wrapperFact {
	return funcFact(r.pass, r.wrappers, fn)
}

// findWrappers finds the package's wrapper functions, exports their facts
// and returns them. A wrapper may call another, so it iterates to a fixed
// point.
func findWrappers(pass *analysis.Pass, in *inspector.Inspector) map[*types.Func]*wrapperFact {
	type decl struct {
		fn  *types.Func
		cur inspector.Cursor
	}
	var decls []decl
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && fd.Body != nil {
			decls = append(decls, decl{fn, cur})
		}
	}
	found := make(map[*types.Func]*wrapperFact)
	lookup := func(fn *types.Func) *wrapperFact {
		if f, ok := found[fn.Origin()]; ok {
			return f
		}
		f := new(wrapperFact)
		if fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn.Origin(), f) {
			return f
		}
		return nil
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if found[d.fn] == nil {
				if f := wrapperFactOf(pass.TypesInfo, d.fn, d.cur, lookup); f != nil {
					found[d.fn] = f
					changed = true
				}
			}
		}
	}
	for fn, f := range found {
		pass.ExportObjectFact(fn, f)
	}
	if len(found) > 0 {
		pass.ExportPackageFact(new(hasWrappersFact))
	}
	return found
}

// wrapperFactOf returns the fact for the function declared at cur, or nil.
func wrapperFactOf(info *types.Info, fn *types.Func, cur inspector.Cursor, lookup func(*types.Func) *wrapperFact) *wrapperFact {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() != 1 {
		return nil
	}
	var wantBool bool
	switch t := sig.Results().At(0).Type(); {
	case types.Identical(t, types.Universe.Lookup("error").Type()):
	case types.Identical(t, types.Typ[types.Bool]):
		wantBool = true
	default:
		return nil
	}
	paramIndex := func(e ast.Expr) int { return paramIndex(info, sig, e) }
	fd := cur.Node().(*ast.FuncDecl)
	for c := range cur.Child(fd.Body).Preorder((*ast.CallExpr)(nil)) {
		if _, inDecl := enclosingDecl(c); !inDecl {
			continue // inside a function literal
		}
		call := c.Node().(*ast.CallExpr)
		callFn := callee(info, call)
		var sigArg, pidArg ast.Expr
		var signal, always bool
		switch {
		case (isPkgFunc(callFn, syscallPath, "Kill") || isPkgFunc(callFn, unixPath, "Kill")) && len(call.Args) == 2:
			pidArg, sigArg = call.Args[0], call.Args[1]
		case isProcessMethod(callFn, "Signal") && len(call.Args) == 1:
			sigArg, signal = call.Args[0], true
			pidArg = findProcessArg(info, c, call)
		case callFn != nil:
			w := lookup(callFn)
			if w == nil {
				continue
			}
			signal, always = w.Signal, w.SigParam < 0 || w.Bool
			if w.Bool {
				continue // the verdict is made, and reported, inside
			}
			if w.SigParam >= 0 && w.SigParam < len(call.Args) {
				sigArg = call.Args[w.SigParam]
			}
			if w.PIDParam >= 0 && w.PIDParam < len(call.Args) {
				pidArg = call.Args[w.PIDParam]
			}
		default:
			continue
		}
		sigParam := -1
		if sigArg != nil && isZero(info, sigArg) {
			always = true
		} else if sigArg != nil {
			if sigParam = paramIndex(sigArg); sigParam < 0 {
				continue
			}
		}
		if !always && sigParam < 0 {
			continue
		}
		u := useOf(info, c, 0)
		switch {
		case !wantBool && u.kind == useReturned:
		case wantBool && !always && returnsNilComparison(c, u):
		default:
			continue
		}
		pidParam := -1
		if pidArg != nil {
			pidParam = paramIndex(pidArg)
		}
		return &wrapperFact{Signal: signal, SigParam: sigParam, PIDParam: pidParam, Bool: wantBool}
	}
	return nil
}

// returnsNilComparison reports whether the call at c is returned as
// "call == nil".
func returnsNilComparison(c inspector.Cursor, u errUse) bool {
	if u.direct == nil || u.direct.Op != token.EQL || u.inverted {
		return false
	}
	for p := c.Parent(); ; p = p.Parent() {
		switch p.Node().(type) {
		case *ast.ParenExpr, *ast.BinaryExpr:
			continue
		case *ast.ReturnStmt:
			return true
		}
		return false
	}
}

// findProcessArg returns the PID argument of the os.FindProcess call that
// produced the receiver of p.Signal(…), when the function makes it.
func findProcessArg(info *types.Info, c inspector.Cursor, call *ast.CallExpr) ast.Expr {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	recv := info.Uses[id]
	body := enclosingFunc(c)
	if recv == nil || !body.Valid() {
		return nil
	}
	for a := range body.Preorder((*ast.AssignStmt)(nil)) {
		assign := a.Node().(*ast.AssignStmt)
		if len(assign.Rhs) != 1 || len(assign.Lhs) != 2 {
			continue
		}
		fp, ok := assign.Rhs[0].(*ast.CallExpr)
		if !ok || !isPkgFunc(callee(info, fp), "os", "FindProcess") || len(fp.Args) != 1 {
			continue
		}
		if lid, ok := assign.Lhs[0].(*ast.Ident); ok && info.ObjectOf(lid) == recv {
			return fp.Args[0]
		}
	}
	return nil
}

// wrapperCall handles a call to a wrapper with signal 0.
func (s *site) wrapperCall() {
	w := s.r.wrapperOf(s.fn)
	args := s.call.Args
	if w.SigParam >= 0 && (w.SigParam >= len(args) || !isZero(s.info(), args[w.SigParam])) {
		return
	}
	var pid ast.Expr
	if w.PIDParam >= 0 && w.PIDParam < len(args) {
		pid = args[w.PIDParam]
	}
	wrapped := "kill(pid, 0)"
	if w.Signal {
		wrapped = "Process.Signal(0)"
	}
	what := fmt.Sprintf("%s (a wrapper of %s)", s.fn.Name(), wrapped)
	check, alive := "", ""
	if pid != nil {
		check, alive = s.safeprobeCall("Check", pid), s.safeprobeCall("Alive", pid)
	}
	if w.Bool {
		unix := goos.Describe(s.os)
		f := s.finding("%s reads EPERM (another user's process) as dead and a zombie or reused PID as alive on %s (where this code builds); use safeprobe.Alive", what, unix)
		f.fix = s.replaceCall(alive)
		s.r.add(s.fs, f)
		return
	}
	s.errProbe(errProbe{
		what:    what,
		windows: w.Signal && w.SigParam >= 0,
		check:   check,
		alive:   alive,
		advice:  "safeprobe.Check",
	}, 0)
}
