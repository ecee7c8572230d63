// Package calls resolves the function a call invokes and says what, to
// pidlint, the call does: probe a PID's liveness, send it a signal, read
// a file a PID may be stored in, lock or remove a file, start a process.
// Every rule and both source pre-filters take their knowledge of these
// functions from here: roles.go lists them, call.go reads a call's
// operands, command.go classifies command lines, scan.go (with lexer.go)
// finds the same calls in a file's tokens, and filter.go makes source
// pre-filters of that.
package calls

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"
)

// Packages whose kill, Signal and errno values the rules know.
const (
	Syscall = "syscall"
	Unix    = "golang.org/x/sys/unix"
)

// Callee returns the function or method a call invokes, or nil.
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn
}

// IsPkgFunc reports whether fn is the package-level function path.name.
func IsPkgFunc(fn *types.Func, path string, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != path {
		return false
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return false
	}
	return slices.Contains(names, fn.Name())
}

// IsProcessMethod reports whether fn is (*os.Process).name.
func IsProcessMethod(fn *types.Func, name string) bool {
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

// IsErrorMethod reports whether fn is the Error method of the error
// interface (err.Error() on a value of static type error).
func IsErrorMethod(fn *types.Func) bool {
	if fn.Name() != "Error" || fn.Pkg() != nil {
		return false
	}
	recv := fn.Signature().Recv()
	return recv != nil && types.Identical(recv.Type(), types.Universe.Lookup("error").Type())
}

// RecvTypeName is the name of a method's receiver type, or "".
func RecvTypeName(fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		return ""
	}
	t := recv.Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// TakesInt reports whether one of fn's parameters is an integer.
func TakesInt(fn *types.Func) bool {
	params := fn.Signature().Params()
	for i := range params.Len() {
		if b, ok := params.At(i).Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return true
		}
	}
	return false
}

// IsSafeprobe reports whether pkg is safeprobe: the package at path (the
// analyzer's -safeprobe) or any package named safeprobe (a vendored copy).
func IsSafeprobe(pkg *types.Package, path string) bool {
	return pkg != nil && (pkg.Path() == path || pkg.Name() == "safeprobe")
}
