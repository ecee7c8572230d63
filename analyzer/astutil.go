package analyzer

// This file holds the AST and type helpers every rule shares.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Packages whose kill, Signal and errno values the rules know.
const (
	syscallPath = "syscall"
	unixPath    = "golang.org/x/sys/unix"
)

func isSyscallPkg(path string) bool { return path == syscallPath || path == unixPath }

// callee returns the function or method a call invokes, or nil.
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn
}

// isPkgFunc reports whether fn is the package-level function path.name.
func isPkgFunc(fn *types.Func, path string, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != path {
		return false
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// isProcessMethod reports whether fn is (*os.Process).name.
func isProcessMethod(fn *types.Func, name string) bool {
	if fn == nil || fn.Name() != name || fn.Pkg() == nil || fn.Pkg().Path() != "os" {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	ptr, ok := sig.Recv().Type().(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := ptr.Elem().(*types.Named)
	return ok && named.Obj().Name() == "Process"
}

// isPkgObj reports whether e refers to the package-level object path.name.
func isPkgObj(info *types.Info, e ast.Expr, path string, names ...string) bool {
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

// intConst returns the value of e when it is an integer constant. Other
// constant kinds (Kill-like APIs take string constants too) are not.
func intConst(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

func isZero(info *types.Info, e ast.Expr) bool {
	v, ok := intConst(info, e)
	return ok && v == 0
}

func stringConst(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// isInteger reports whether e has an integer type. With onlyInt it must
// be int itself or an untyped integer constant: what safeprobe takes.
func isInteger(info *types.Info, e ast.Expr, onlyInt bool) bool {
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

// unconvert strips conversions such as syscall.Signal(sig) or int(pid).
func unconvert(info *types.Info, e ast.Expr) ast.Expr {
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

// isLivenessError reports whether e names an error that tells a gone
// process from an inaccessible one: EPERM, ESRCH, os.ErrProcessDone or
// the permission errors.
func isLivenessError(info *types.Info, e ast.Expr) bool {
	return isPkgObj(info, e, syscallPath, "EPERM", "ESRCH") ||
		isPkgObj(info, e, unixPath, "EPERM", "ESRCH") ||
		isPkgObj(info, e, "os", "ErrProcessDone", "ErrPermission") ||
		isPkgObj(info, e, "io/fs", "ErrPermission")
}

func blank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// flattenConcat returns the operands of a chain of + as one list.
func flattenConcat(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
		return append(flattenConcat(b.X), flattenConcat(b.Y)...)
	}
	return []ast.Expr{e}
}

// enclosingFunc returns the body of the innermost function around cur.
func enclosingFunc(cur inspector.Cursor) inspector.Cursor {
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

// enclosingDecl returns the function declaration around cur when no
// function literal is nearer.
func enclosingDecl(cur inspector.Cursor) (*ast.FuncDecl, bool) {
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		decl, ok := c.Node().(*ast.FuncDecl)
		return decl, ok
	}
	return nil, false
}

// usesIn yields the identifiers in body (a function body from
// enclosingFunc; nothing when it is not valid) that refer to v.
func usesIn(info *types.Info, body inspector.Cursor, v types.Object) iter.Seq[inspector.Cursor] {
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

// localDefinition returns the value a local variable is given when the
// function around cur assigns it exactly once.
func localDefinition(info *types.Info, cur inspector.Cursor, id *ast.Ident) ast.Expr {
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	body := enclosingFunc(cur)
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

// paramIndex returns the index of the parameter of sig that e is (through
// conversions), or -1.
func paramIndex(info *types.Info, sig *types.Signature, e ast.Expr) int {
	id, ok := unconvert(info, e).(*ast.Ident)
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

// funcFact returns the fact of type *T about fn: from local, the facts of
// this package's functions, or imported with fn's package.
func funcFact[T any, PT interface {
	*T
	analysis.Fact
}](pass *analysis.Pass, local map[*types.Func]PT, fn *types.Func) PT {
	fn = fn.Origin()
	if f, ok := local[fn]; ok {
		return f
	}
	if fn.Pkg() == pass.Pkg {
		return nil
	}
	f := PT(new(T))
	if pass.ImportObjectFact(fn, f) {
		return f
	}
	return nil
}
