package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

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

// isIntType reports whether e has type int (what safeprobe takes).
func isIntType(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	b, ok := t.(*types.Basic)
	return ok && (b.Kind() == types.Int || b.Kind() == types.UntypedInt)
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

// isComparison reports whether e is x == y or x != y.
func isComparison(e ast.Node) (*ast.BinaryExpr, bool) {
	b, ok := e.(*ast.BinaryExpr)
	return b, ok && (b.Op == token.EQL || b.Op == token.NEQ)
}
