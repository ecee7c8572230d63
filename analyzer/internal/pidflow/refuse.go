package pidflow

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// refusal returns where the code in the blocks b dominates ends the start
// with an error: it returns a non-nil error (not the probe's own answer,
// which is nil there), exits with a non-zero status, or calls a Fatal
// logger; NoPos if it does not.
func refusal(u *unit, b *ssa.BasicBlock) token.Pos {
	fn := b.Parent()
	for _, c := range fn.Blocks {
		for _, ins := range c.Instrs {
			switch ins := ins.(type) {
			case *ssa.Return:
				if pos := refusingReturn(u, ins, b); pos.IsValid() {
					return pos
				}
			case *ssa.Call:
				if b.Dominates(c) && exits(ins) {
					return ins.Pos()
				}
			}
		}
	}
	return token.NoPos
}

// refusingReturn returns the position of a return whose error result is
// set to a non-nil error in the blocks b dominates: returned there, or
// given on an edge from there to a phi.
func refusingReturn(u *unit, ret *ssa.Return, b *ssa.BasicBlock) token.Pos {
	res := ret.Parent().Signature.Results()
	if res.Len() == 0 || len(ret.Results) != res.Len() || !isError(res.At(res.Len()-1).Type()) {
		return token.NoPos
	}
	v := ret.Results[len(ret.Results)-1]
	if b.Dominates(ret.Block()) {
		if refusingError(u, v) {
			return ret.Pos()
		}
		return token.NoPos
	}
	if phi, ok := v.(*ssa.Phi); ok {
		for i, e := range phi.Edges {
			if b.Dominates(phi.Block().Preds[i]) && refusingError(u, e) {
				return ret.Pos()
			}
		}
	}
	return token.NoPos
}

// refusingError reports whether an error value refuses: an error made
// there (errors.New, fmt.Errorf, a package's error variable), not nil,
// not a probe's answer (nil where the probe said alive), and not another
// call's error handed on (a parse's, after the file was read).
func refusingError(u *unit, v ssa.Value) bool {
	if isNil(v) {
		return false
	}
	if _, handedOn := unconvert(v).(*ssa.Extract); handedOn {
		return false
	}
	for _, l := range u.read(u.content(v)) {
		if l.kind == answer || l.kind == exists {
			return false
		}
	}
	return true
}

// exits reports whether a call ends the process with a failure: os.Exit
// with a non-zero constant, log.Fatal and any logger's Fatal.
func exits(call *ssa.Call) bool {
	fn := call.Call.StaticCallee()
	var obj *types.Func
	if fn != nil {
		obj, _ = fn.Object().(*types.Func)
	}
	if call.Call.IsInvoke() {
		obj = call.Call.Method
	}
	if obj == nil {
		return false
	}
	if calls.RolesOf(obj, "")&calls.Exit != 0 {
		n, ok := intConst(call.Call.Args[0])
		return ok && n != 0
	}
	return strings.HasPrefix(obj.Name(), "Fatal")
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
