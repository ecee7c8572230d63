package pidflow

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// refusal returns where the code after b ends the start with an error,
// on every path from b: it returns a non-nil error (not the probe's own
// answer, which is nil there), exits with a non-zero status, or calls a
// Fatal logger; NoPos if it does not. A path that loops back to ask again
// ends there; an error that only some paths from b reach (a read that
// failed, a child that did not start) answers another question.
func refusal(u *unit, b *ssa.BasicBlock) token.Pos {
	for _, c := range b.Parent().Blocks {
		if !b.Dominates(c) {
			continue
		}
		for _, ins := range c.Instrs {
			var pos token.Pos
			switch ins := ins.(type) {
			case *ssa.Return:
				pos = refusingReturn(u, ins)
			case *ssa.Call:
				if exits(ins) {
					pos = ins.Pos()
				}
			}
			if pos.IsValid() && alwaysReaches(b, c) {
				return pos
			}
		}
		// A return of a phi given a refusing error on c's edge.
		if len(c.Succs) == 1 {
			for _, ins := range c.Succs[0].Instrs {
				if ret, ok := ins.(*ssa.Return); ok && refusingEdge(u, ret, c) && alwaysReaches(b, c) {
					return ret.Pos()
				}
			}
		}
	}
	return token.NoPos
}

// alwaysReaches reports whether every path from b reaches c before the
// function returns or panics. A path back to a block that dominates b (a
// loop around it) asks b's question again, and ends there.
func alwaysReaches(b, c *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{b: true, c: true}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 && b != c {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(x.Succs) == 0 {
			return false // a return or panic before c
		}
		for _, s := range x.Succs {
			if !seen[s] && !s.Dominates(b) {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return true
}

// refusingReturn returns the position of ret when it returns a non-nil
// error it made.
func refusingReturn(u *unit, ret *ssa.Return) token.Pos {
	if v, ok := returnedError(ret); ok && refusingError(u, v) {
		return ret.Pos()
	}
	return token.NoPos
}

// refusingEdge reports whether ret returns a phi that is given a refusing
// error on the edge from pred.
func refusingEdge(u *unit, ret *ssa.Return, pred *ssa.BasicBlock) bool {
	v, ok := returnedError(ret)
	phi, isPhi := v.(*ssa.Phi)
	if !ok || !isPhi || phi.Block() != ret.Block() {
		return false
	}
	for i, e := range phi.Edges {
		if phi.Block().Preds[i] == pred && refusingError(u, e) {
			return true
		}
	}
	return false
}

// returnedError returns the error result ret returns, for a function
// whose last result is an error.
func returnedError(ret *ssa.Return) (ssa.Value, bool) {
	res := ret.Parent().Signature.Results()
	if res.Len() == 0 || len(ret.Results) != res.Len() || !isError(res.At(res.Len()-1).Type()) {
		return nil, false
	}
	return ret.Results[len(ret.Results)-1], true
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
