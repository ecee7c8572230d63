package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// A child this program started (exec.Cmd.Start, os.StartProcess) stays a
// zombie after it exits until it is waited for: Signal(0) succeeds on it,
// so the probe reads it as alive. Its PID is not reused before Wait, and
// Wait (in a goroutine that records the exit) is the liveness answer.

// ownChild reports whether the *os.Process expression e, at cur, names a
// child this program started: an exec.Cmd's Process, a local variable
// every assignment of which in its function is os.StartProcess's Process
// or an exec.Cmd's, or a struct field every assignment of which in the
// package is one of those.
func ownChild(r *runner, cur inspector.Cursor, e ast.Expr) bool {
	info := r.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if isCmdProcess(info, e) {
			return true
		}
		if sel, ok := info.Selections[e]; ok && sel.Kind() == types.FieldVal {
			if v, ok := sel.Obj().(*types.Var); ok && v.Pkg() == r.pass.Pkg {
				return childField(r, v)
			}
		}
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok && !v.IsField() {
			return childVar(info, astq.EnclosingFunc(cur), v)
		}
	}
	return false
}

// isCmdProcess reports whether e reads the Process field of an exec.Cmd,
// which only Cmd.Start sets.
func isCmdProcess(info *types.Info, e *ast.SelectorExpr) bool {
	sel, ok := info.Selections[e]
	if !ok || sel.Kind() != types.FieldVal {
		return false
	}
	f := sel.Obj()
	return f.Name() == "Process" && f.Pkg() != nil && f.Pkg().Path() == "os/exec"
}

// startsChild reports whether value i of an assignment from rhs (one
// expression per value, or a single call when tuple) is a started child.
func startsChild(info *types.Info, rhs ast.Expr, i int, tuple bool) bool {
	if tuple {
		call, ok := ast.Unparen(rhs).(*ast.CallExpr)
		return ok && i == 0 && calls.IsPkgFunc(calls.Callee(info, call), "os", "StartProcess")
	}
	sel, ok := ast.Unparen(rhs).(*ast.SelectorExpr)
	return ok && isCmdProcess(info, sel)
}

// childVar reports whether v is assigned in body, and only a started
// child.
func childVar(info *types.Info, body inspector.Cursor, v *types.Var) bool {
	if !body.Valid() {
		return false
	}
	n := 0
	for c := range body.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
		var lhs []ast.Expr
		var rhs []ast.Expr
		switch a := c.Node().(type) {
		case *ast.AssignStmt:
			lhs, rhs = a.Lhs, a.Rhs
		case *ast.ValueSpec:
			for _, name := range a.Names {
				lhs = append(lhs, name)
			}
			rhs = a.Values
		}
		for i, l := range lhs {
			id, ok := l.(*ast.Ident)
			if !ok || info.ObjectOf(id) != v {
				continue
			}
			n++
			if !assignsChild(info, lhs, rhs, i) {
				return false
			}
		}
	}
	return n > 0
}

// assignsChild reports whether value i of lhs = rhs is a started child.
func assignsChild(info *types.Info, lhs, rhs []ast.Expr, i int) bool {
	switch {
	case len(rhs) == len(lhs):
		return startsChild(info, rhs[i], i, false)
	case len(rhs) == 1:
		return startsChild(info, rhs[0], i, true)
	}
	return false
}

// childField reports whether field v of a type of this package is set
// somewhere in the package, and only to a started child (directly, or from
// a local variable holding one).
func childField(r *runner, v *types.Var) bool {
	info := r.pass.TypesInfo
	n, ok := 0, true
	check := func(c inspector.Cursor, lhs, rhs []ast.Expr, i int) {
		n++
		if assignsChild(info, lhs, rhs, i) {
			return
		}
		if len(rhs) == len(lhs) {
			if id, isID := ast.Unparen(rhs[i]).(*ast.Ident); isID {
				if lv, isVar := info.Uses[id].(*types.Var); isVar && !lv.IsField() && childVar(info, astq.EnclosingFunc(c), lv) {
					return
				}
			}
		}
		ok = false
	}
	for c := range r.in.Root().Preorder((*ast.AssignStmt)(nil), (*ast.KeyValueExpr)(nil)) {
		switch a := c.Node().(type) {
		case *ast.AssignStmt:
			for i, l := range a.Lhs {
				if sel, isSel := ast.Unparen(l).(*ast.SelectorExpr); isSel && fieldOf(info, sel) == v {
					check(c, a.Lhs, a.Rhs, i)
				}
			}
		case *ast.KeyValueExpr:
			if key, isID := a.Key.(*ast.Ident); isID && info.Uses[key] == v {
				check(c, []ast.Expr{a.Key}, []ast.Expr{a.Value}, 0)
			}
		}
	}
	return ok && n > 0
}

// fieldOf returns the field sel selects, or nil.
func fieldOf(info *types.Info, sel *ast.SelectorExpr) types.Object {
	if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
		return s.Obj()
	}
	return nil
}
