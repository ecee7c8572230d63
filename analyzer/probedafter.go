package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// probedAfter reports whether, after the os.FindProcess at s, the block
// that holds it goes on to a real probe of the same PID variable: kill or
// Signal with 0, a wrapper of them, safeprobe, or a function of this
// package, given the PID, whose body holds such a probe. FindProcess is
// then a first filter, not the verdict ("if err != nil { return false }"
// and then isProcessExist(pid)).
func probedAfter(s *site) bool {
	info := s.info()
	if len(s.Expr.Args) != 1 {
		return false
	}
	v := astq.VarOf(info, s.Expr.Args[0])
	if v == nil {
		return false
	}
	stmt := enclosingStmt(s.cur)
	if !stmt.Valid() {
		return false
	}
	for next, ok := stmt.NextSibling(); ok; next, ok = next.NextSibling() {
		for c := range next.Preorder((*ast.CallExpr)(nil)) {
			call := c.Node().(*ast.CallExpr)
			k := s.r.cls.Of(call)
			if isRealProbe(k) && astq.VarOf(info, probedPID(k)) == v {
				return true
			}
			if probingFunc(s, k.Fn) && passes(info, call, v) {
				return true
			}
		}
	}
	return false
}

// isRealProbe reports whether k asks the OS about a process: FindProcess
// does not.
func isRealProbe(k calls.Call) bool {
	return k.Probe() && k.Role&calls.FindProcess == 0 ||
		k.Role&(calls.SafeAlive|calls.SafeCheck|calls.SafeProbe) != 0
}

// probedPID is the PID a real probe asks about: safeprobe's first argument.
func probedPID(k calls.Call) ast.Expr {
	if k.Role&calls.Safeprobe != 0 && len(k.Expr.Args) == 1 {
		return k.Expr.Args[0]
	}
	return k.PID
}

// passes reports whether call passes v as an argument.
func passes(info *types.Info, call *ast.CallExpr, v *types.Var) bool {
	for _, a := range call.Args {
		if astq.VarOf(info, a) == v {
			return true
		}
	}
	return false
}

// probingFunc reports whether fn is declared in s's package, in this
// build, with a real probe in its body.
func probingFunc(s *site, fn *types.Func) bool {
	if fn == nil || fn.Pkg() != s.r.pass.Pkg {
		return false
	}
	for _, f := range s.r.pass.Files {
		for _, d := range f.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil || s.info().Defs[decl.Name] != fn {
				continue
			}
			cur, ok := s.r.in.Root().FindNode(decl.Body)
			return ok && holdsRealProbe(s.r.cls, cur)
		}
	}
	return false
}

func holdsRealProbe(cls *calls.Classifier, body inspector.Cursor) bool {
	for c := range body.Preorder((*ast.CallExpr)(nil)) {
		if isRealProbe(cls.Of(c.Node().(*ast.CallExpr))) {
			return true
		}
	}
	return false
}
