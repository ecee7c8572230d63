package pidflow

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// kill(2) takes a 32-bit pid_t, but syscall.Kill and unix.Kill take an
// int: on a 64-bit OS 4294967295 reaches the kernel as -1 (every process
// the caller may signal) and 4294967296 as 0 (its own process group).
// strconv.Atoi and ParseInt(s, 10, 64) accept them, and "pid > 0" lets
// them through.

// wideParseOf returns the strconv call that parsed a PID of origin o,
// signalled in the function in, as a number wider than 32 bits, when no
// upper bound is checked in in or where the PID was read; else nil.
func wideParseOf(f *Flow, in Func, o *Origin) *ast.CallExpr {
	scopes := []inspector.Cursor{in.Cur}
	if o.ReadIn != nil && o.ReadIn != in.Fn {
		if rd, ok := f.funcs.of(o.ReadIn); ok {
			scopes = append(scopes, rd.Cur)
		}
	}
	match := func(e ast.Expr) bool { return f.taint.origin(nil, e) == o }
	var parse *ast.CallExpr
	for _, cur := range scopes {
		if boundedAbove(f.cls, cur, match) {
			return nil
		}
		for c := range cur.Preorder((*ast.CallExpr)(nil)) {
			call := c.Node().(*ast.CallExpr)
			if parse == nil && wideParse(f.cls, call) && match(call.Args[0]) {
				parse = call
			}
		}
	}
	return parse
}

// wideParse reports whether call is strconv.Atoi, or ParseInt or
// ParseUint with a bit size of 0 or over 32.
func wideParse(cls *calls.Classifier, call *ast.CallExpr) bool {
	fn := calls.Callee(cls.Info, call)
	switch {
	case calls.IsPkgFunc(fn, "strconv", "Atoi"):
		return len(call.Args) == 1
	case calls.IsPkgFunc(fn, "strconv", "ParseInt", "ParseUint"):
		if len(call.Args) != 3 {
			return false
		}
		bits, ok := astq.IntConst(cls.Info, call.Args[2])
		return ok && (bits == 0 || bits > 32)
	}
	return false
}

// boundedAbove reports whether the code at cur compares a value match
// accepts with a constant over 1 (pid < 1<<22, pid <= math.MaxInt32), or
// has safeprobe.ValidatePID or ParsePID check it.
func boundedAbove(cls *calls.Classifier, cur inspector.Cursor, match func(ast.Expr) bool) bool {
	for c := range cur.Preorder((*ast.BinaryExpr)(nil), (*ast.CallExpr)(nil)) {
		switch b := c.Node().(type) {
		case *ast.BinaryExpr:
			switch b.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
			default:
				continue
			}
			for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				if v, ok := astq.IntConst(cls.Info, pair[1]); ok && v > 1 && match(pair[0]) {
					return true
				}
			}
		case *ast.CallExpr:
			r := calls.RolesOf(calls.Callee(cls.Info, b), cls.Safeprobe)
			if r&(calls.SafeValidatePID|calls.SafeParsePID) != 0 && len(b.Args) == 1 && match(b.Args[0]) {
				return true
			}
		}
	}
	return false
}
