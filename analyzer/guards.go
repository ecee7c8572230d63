package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

// guardedOS narrows the OS set of a file to the code at cur, following
// runtime.GOOS tests around it: if/else branches, switch cases, and an
// earlier "if runtime.GOOS == "windows" { return … }" in an enclosing block.
func guardedOS(info *types.Info, cur inspector.Cursor, s goos.Set) goos.Set {
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
func caseOS(info *types.Info, clause inspector.Cursor, cc *ast.CaseClause) goos.Set {
	sw, ok := clause.Parent().Parent().Node().(*ast.SwitchStmt)
	if !ok {
		return goos.All
	}
	if sw.Tag == nil { // switch { case runtime.GOOS == "windows": … }
		if cc.List == nil {
			return goos.All
		}
		var s goos.Set
		for _, e := range cc.List {
			t, _ := goosCond(info, clause, e)
			s |= t
		}
		return s
	}
	if !isPkgObj(info, sw.Tag, "runtime", "GOOS") {
		return goos.All
	}
	caseSet := func(c *ast.CaseClause) goos.Set {
		var s goos.Set
		for _, e := range c.List {
			if v, ok := stringConst(info, e); ok {
				s |= goos.Of(v)
			}
		}
		return s
	}
	if cc.List != nil {
		return caseSet(cc)
	}
	s := goos.All
	for _, stmt := range sw.Body.List {
		s &^= caseSet(stmt.(*ast.CaseClause))
	}
	return s
}

// goosCond returns the OS sets on which cond, in the function around cur,
// can be true and can be false. A condition that does not test runtime.GOOS
// can be either anywhere.
func goosCond(info *types.Info, cur inspector.Cursor, cond ast.Expr) (onTrue, onFalse goos.Set) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.Ident:
		// isWindows := runtime.GOOS == "windows"; if isWindows { … }
		// Only a definition that tests GOOS directly: a variable's one
		// assignment may mention itself (b = !b for a parameter b).
		if def := localDefinition(info, cur, e); def != nil && !mentionsVar(info, def) {
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
			if !isPkgObj(info, x, "runtime", "GOOS") {
				x, y = y, x
			}
			v, ok := stringConst(info, y)
			if !isPkgObj(info, x, "runtime", "GOOS") || !ok {
				break
			}
			is := goos.Of(v)
			if e.Op == token.EQL {
				return is, goos.All &^ is
			}
			return goos.All &^ is, is
		}
	}
	return goos.All, goos.All
}

// mentionsVar reports whether e reads any variable.
func mentionsVar(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if _, isVar := info.Uses[id].(*types.Var); isVar {
				found = true
			}
		}
		return !found
	})
	return found
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
		fn := callee(info, call)
		return isPkgFunc(fn, "os", "Exit") || isPkgFunc(fn, "log", "Fatal", "Fatalf", "Fatalln")
	}
	return false
}
