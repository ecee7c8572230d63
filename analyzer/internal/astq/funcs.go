package astq

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"

	"golang.org/x/tools/go/ast/inspector"
)

// EnclosingFunc returns the body of the innermost function around cur.
func EnclosingFunc(cur inspector.Cursor) inspector.Cursor {
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch f := c.Node().(type) {
		case *ast.FuncDecl:
			if f.Body != nil {
				return c.Child(f.Body)
			}
		case *ast.FuncLit:
			return c.Child(f.Body)
		}
		break
	}
	return inspector.Cursor{}
}

// EnclosingDecl returns the function declaration around cur when no
// function literal is nearer.
func EnclosingDecl(cur inspector.Cursor) (*ast.FuncDecl, bool) {
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		decl, ok := c.Node().(*ast.FuncDecl)
		return decl, ok
	}
	return nil, false
}

// InLoop reports whether the code at cur runs in a for or range loop of
// its own function.
func InLoop(cur inspector.Cursor) bool {
	for c := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch c.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		default:
			return false
		}
	}
	return false
}

// UsesIn yields the identifiers in body (a function body from
// EnclosingFunc; nothing when it is not valid) that refer to v.
func UsesIn(info *types.Info, body inspector.Cursor, v types.Object) iter.Seq[inspector.Cursor] {
	return func(yield func(inspector.Cursor) bool) {
		if v == nil || !body.Valid() {
			return
		}
		for c := range body.Preorder((*ast.Ident)(nil)) {
			if info.Uses[c.Node().(*ast.Ident)] == v && !yield(c) {
				return
			}
		}
	}
}

// VarOf returns the variable e names, through parentheses, or nil.
func VarOf(info *types.Info, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// LocalDefinition returns the value a local variable is given when the
// function around cur assigns it exactly once.
func LocalDefinition(info *types.Info, cur inspector.Cursor, id *ast.Ident) ast.Expr {
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	body := EnclosingFunc(cur)
	if !body.Valid() {
		return nil
	}
	var def ast.Expr
	n := 0
	for c := range body.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
		switch a := c.Node().(type) {
		case *ast.AssignStmt:
			for i, lhs := range a.Lhs {
				if lid, ok := lhs.(*ast.Ident); ok && info.ObjectOf(lid) == v {
					n++
					if len(a.Rhs) == len(a.Lhs) {
						def = a.Rhs[i]
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range a.Names {
				if info.Defs[name] == v {
					n++
					if len(a.Values) == len(a.Names) {
						def = a.Values[i]
					}
				}
			}
		}
	}
	if n != 1 {
		return nil
	}
	return def
}

// ParamIndex returns the index of the parameter of sig that e is (through
// conversions), or -1.
func ParamIndex(info *types.Info, sig *types.Signature, e ast.Expr) int {
	id, ok := Unconvert(info, e).(*ast.Ident)
	if !ok {
		return -1
	}
	for i := range sig.Params().Len() {
		if info.Uses[id] == sig.Params().At(i) {
			return i
		}
	}
	return -1
}

// OuterParens returns the outermost parenthesised form of the expression
// at c, and its parent.
func OuterParens(c inspector.Cursor) (expr, parent inspector.Cursor) {
	parent = c.Parent()
	for {
		if _, ok := parent.Node().(*ast.ParenExpr); !ok {
			return c, parent
		}
		c, parent = parent, parent.Parent()
	}
}

// Within reports whether n lies inside one of the nodes in.
func Within(n ast.Node, in []ast.Node) bool {
	for _, o := range in {
		if o.Pos() <= n.Pos() && n.End() <= o.End() {
			return true
		}
	}
	return false
}

// At returns the node that spans exactly pos..end under root (the
// innermost one), as the value flow names its calls and arguments: the
// one way back from a position to the syntax tree, for a fix.
func At(root inspector.Cursor, pos, end token.Pos) (inspector.Cursor, bool) {
	c, ok := root.FindByPos(pos, end)
	if !ok || c.Node().Pos() != pos || c.Node().End() != end {
		return inspector.Cursor{}, false
	}
	return c, true
}
