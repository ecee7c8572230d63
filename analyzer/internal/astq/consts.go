// Package astq answers questions about syntax trees and their types that
// every rule asks: constants, conversions, the function around a node,
// the uses and the one definition of a variable, the branch a test picks.
// It knows no package but the language's.
package astq

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// IntConst returns the value of e when it is an integer constant. Other
// constant kinds (Kill-like APIs take string constants too) are not.
func IntConst(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

// IsZero reports whether e is the integer constant 0.
func IsZero(info *types.Info, e ast.Expr) bool {
	v, ok := IntConst(info, e)
	return ok && v == 0
}

// StringConst returns the value of e when it is a string constant.
func StringConst(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// IsNil reports whether e is nil.
func IsNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// IsNilSignal reports whether e is nil or a conversion of it, such as
// os.Signal(nil).
func IsNilSignal(info *types.Info, e ast.Expr) bool {
	return IsNil(info, Unconvert(info, e))
}

// IsInteger reports whether e has an integer type. With onlyInt it must
// be int itself or an untyped integer constant: what safeprobe takes.
func IsInteger(info *types.Info, e ast.Expr, onlyInt bool) bool {
	t := info.TypeOf(e)
	if !onlyInt {
		t = t.Underlying()
	}
	b, ok := t.(*types.Basic)
	if onlyInt {
		return ok && (b.Kind() == types.Int || b.Kind() == types.UntypedInt)
	}
	return ok && b.Info()&types.IsInteger != 0
}

// Unconvert strips conversions such as syscall.Signal(sig) or int(pid).
func Unconvert(info *types.Info, e ast.Expr) ast.Expr {
	for {
		e = ast.Unparen(e)
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return e
		}
		if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() {
			return e
		}
		e = call.Args[0]
	}
}

// IsPkgObj reports whether e refers to the package-level object path.name.
func IsPkgObj(info *types.Info, e ast.Expr, path string, names ...string) bool {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return false
	}
	obj := info.Uses[id]
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != path || obj.Parent() != obj.Pkg().Scope() {
		return false
	}
	for _, n := range names {
		if obj.Name() == n {
			return true
		}
	}
	return false
}

// IsError reports whether t is the error interface.
func IsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// Blank reports whether e is the blank identifier.
func Blank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// FlattenConcat returns the operands of a chain of + as one list.
func FlattenConcat(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
		return append(FlattenConcat(b.X), FlattenConcat(b.Y)...)
	}
	return []ast.Expr{e}
}

// MentionsName reports whether e mentions an identifier called name.
func MentionsName(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// MentionsVar reports whether e reads any variable.
func MentionsVar(info *types.Info, e ast.Expr) bool {
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
