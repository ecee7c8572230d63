package goos

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// This file narrows a file's OS set to the code at a node, from the
// runtime.GOOS tests around it.

// Guarded narrows the OS set of a file to the code at cur, following
// runtime.GOOS tests around it: if/else branches, switch cases, and an
// earlier "if runtime.GOOS == "windows" { return … }" in an enclosing block.
func Guarded(info *types.Info, cur inspector.Cursor, s Set) Set {
	for c := cur; s != 0; c = c.Parent() {
		if _, ok := c.Node().(*ast.File); ok {
			break
		}
		parent := c.Parent()
		switch p := parent.Node().(type) {
		case *ast.IfStmt:
			t, f := goosCond(info, cur, p.Cond)
			switch c.ParentEdgeKind() {
			case edge.IfStmt_Body:
				s &= t
			case edge.IfStmt_Else:
				s &= f
			}
		case *ast.CaseClause:
			s &= caseOS(info, parent, p)
		case *ast.BlockStmt:
			for prev, ok := c.PrevSibling(); ok; prev, ok = prev.PrevSibling() {
				if ifs, ok := prev.Node().(*ast.IfStmt); ok && ifs.Else == nil && terminates(info, ifs.Body) {
					_, f := goosCond(info, cur, ifs.Cond)
					s &= f
				}
			}
		}
	}
	return s
}

// caseOS is the OS set a switch case on runtime.GOOS runs on.
func caseOS(info *types.Info, clause inspector.Cursor, cc *ast.CaseClause) Set {
	sw, ok := clause.Parent().Parent().Node().(*ast.SwitchStmt)
	if !ok {
		return All
	}
	if sw.Tag == nil { // switch { case runtime.GOOS == "windows": … }
		if cc.List == nil {
			return All
		}
		var s Set
		for _, e := range cc.List {
			t, _ := goosCond(info, clause, e)
			s |= t
		}
		return s
	}
	if !astq.IsPkgObj(info, sw.Tag, "runtime", "GOOS") {
		return All
	}
	caseSet := func(c *ast.CaseClause) Set {
		var s Set
		for _, e := range c.List {
			if v, ok := astq.StringConst(info, e); ok {
				s |= Of(v)
			}
		}
		return s
	}
	if cc.List != nil {
		return caseSet(cc)
	}
	s := All
	for _, stmt := range sw.Body.List {
		s &^= caseSet(stmt.(*ast.CaseClause))
	}
	return s
}

// goosCond returns the OS sets on which cond, in the function around cur,
// can be true and can be false. A condition that does not test runtime.GOOS
// can be either anywhere.
func goosCond(info *types.Info, cur inspector.Cursor, cond ast.Expr) (onTrue, onFalse Set) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.Ident:
		// isWindows := runtime.GOOS == "windows"; if isWindows { … }
		// Only a definition that tests GOOS directly: a variable's one
		// assignment may mention itself (b = !b for a parameter b).
		if def := astq.LocalDefinition(info, cur, e); def != nil && !astq.MentionsVar(info, def) {
			return goosCond(info, cur, def)
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			t, f := goosCond(info, cur, e.X)
			return f, t
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			xt, xf := goosCond(info, cur, e.X)
			yt, yf := goosCond(info, cur, e.Y)
			return xt & yt, xf | yf
		case token.LOR:
			xt, xf := goosCond(info, cur, e.X)
			yt, yf := goosCond(info, cur, e.Y)
			return xt | yt, xf & yf
		case token.EQL, token.NEQ:
			x, y := e.X, e.Y
			if !astq.IsPkgObj(info, x, "runtime", "GOOS") {
				x, y = y, x
			}
			v, ok := astq.StringConst(info, y)
			if !astq.IsPkgObj(info, x, "runtime", "GOOS") || !ok {
				break
			}
			is := Of(v)
			if e.Op == token.EQL {
				return is, All &^ is
			}
			return All &^ is, is
		}
	}
	return All, All
}

// terminates reports whether a block always leaves the enclosing block:
// it ends in return, panic, os.Exit, log.Fatal*, or a branch statement.
func terminates(info *types.Info, b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
			_, builtin := info.Uses[id].(*types.Builtin)
			return builtin
		}
		return calls.RolesOf(calls.Callee(info, call), "")&(calls.Exit|calls.Fatal) != 0
	}
	return false
}
