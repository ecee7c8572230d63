// Package wrappers finds the functions that wrap a liveness probe (kill or
// Signal with a signal parameter or 0) and exports their facts, for PL006
// and for the calls every rule classifies (calls.Wrapped).
package wrappers

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
	"github.com/pidlint/pidlint/analyzer/internal/uses"
)

// A decl is a function declaration with a body.
type decl struct {
	Fn  *types.Func
	Cur inspector.Cursor
}

// FindWrappers finds the package's wrapper functions (see facts.Wrapper),
// exports their facts and returns them. A wrapper may call another, so it
// iterates to a fixed point.
func FindWrappers(pass *analysis.Pass, in *inspector.Inspector) map[*types.Func]*facts.Wrapper {
	var decls []decl
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && fd.Body != nil {
			decls = append(decls, decl{fn, cur})
		}
	}
	found := make(map[*types.Func]*facts.Wrapper)
	lookup := func(fn *types.Func) *facts.Wrapper { return facts.Of(pass, found, fn) }
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if found[d.Fn] == nil {
				if f := wrapperFactOf(pass.TypesInfo, d, lookup); f != nil {
					found[d.Fn] = f
					changed = true
				}
			}
		}
	}
	for fn, f := range found {
		pass.ExportObjectFact(fn, f)
	}
	if len(found) > 0 {
		pass.ExportPackageFact(new(facts.HasWrappers))
	}
	return found
}

// wrapperFactOf returns the fact for the function d, or nil.
func wrapperFactOf(info *types.Info, d decl, lookup func(*types.Func) *facts.Wrapper) *facts.Wrapper {
	sig := d.Fn.Signature()
	if sig.Results().Len() != 1 {
		return nil
	}
	var wantBool bool
	switch t := sig.Results().At(0).Type(); {
	case astq.IsError(t):
	case types.Identical(t, types.Typ[types.Bool]):
		wantBool = true
	default:
		return nil
	}
	cls := &calls.Classifier{Info: info, Wrapper: lookup}
	fd := d.Cur.Node().(*ast.FuncDecl)
	for c := range d.Cur.Child(fd.Body).Preorder((*ast.CallExpr)(nil)) {
		if _, inDecl := astq.EnclosingDecl(c); !inDecl {
			continue // inside a function literal
		}
		k := cls.Of(c.Node().(*ast.CallExpr))
		var pidArg ast.Expr
		var signal, always bool
		switch {
		case k.Role&calls.Kill != 0 && k.Sig != nil:
			pidArg = k.PID
		case k.Role&calls.ProcessSignal != 0 && len(k.Expr.Args) == 1:
			signal = true
			pidArg = findProcessArg(info, c, k.Expr)
		case k.Role&calls.Wrapped != 0:
			w := k.Wrapper
			if w.Bool {
				continue // the verdict is made, and reported, inside
			}
			signal, always = w.Signal, w.SigParam < 0
			pidArg = k.PID
		default:
			continue
		}
		sigParam := -1
		if k.Sig != nil && k.SigZero {
			always = true
		} else if k.Sig != nil {
			if sigParam = astq.ParamIndex(info, sig, k.Sig); sigParam < 0 {
				continue
			}
		}
		if !always && sigParam < 0 {
			continue
		}
		u := uses.Of(info, c, 0)
		switch {
		case !wantBool && u.Kind == uses.Returned:
		case wantBool && !always && returnsNilComparison(c, u):
		default:
			continue
		}
		pidParam := -1
		if pidArg != nil {
			pidParam = astq.ParamIndex(info, sig, pidArg)
		}
		return &facts.Wrapper{Signal: signal, SigParam: sigParam, PIDParam: pidParam, Bool: wantBool}
	}
	return nil
}

// returnsNilComparison reports whether the call at c is returned as
// "call == nil".
func returnsNilComparison(c inspector.Cursor, u uses.Err) bool {
	if u.Direct == nil || u.Direct.Op != token.EQL || u.Inverted {
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
	body := astq.EnclosingFunc(c)
	if recv == nil || !body.Valid() {
		return nil
	}
	for a := range body.Preorder((*ast.AssignStmt)(nil)) {
		assign := a.Node().(*ast.AssignStmt)
		if len(assign.Rhs) != 1 || len(assign.Lhs) != 2 {
			continue
		}
		fp, ok := assign.Rhs[0].(*ast.CallExpr)
		if !ok || !calls.IsPkgFunc(calls.Callee(info, fp), "os", "FindProcess") || len(fp.Args) != 1 {
			continue
		}
		if lid, ok := assign.Lhs[0].(*ast.Ident); ok && info.ObjectOf(lid) == recv {
			return fp.Args[0]
		}
	}
	return nil
}
