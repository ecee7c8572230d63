package pidflow

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// refusal returns where the code that runs whenever b runs (b, and the
// blocks after it up to the next branch) ends the start with an error: it
// returns a non-nil error (not the probe's own answer, which is nil
// there), exits with a non-zero status, or calls a Fatal logger; NoPos if
// it does not. A refusal behind a further branch answers another question
// (a read that failed, a child that did not start).
func refusal(u *unit, b *ssa.BasicBlock) token.Pos {
	for _, c := range straightFrom(b) {
		for _, ins := range c.Instrs {
			switch ins := ins.(type) {
			case *ssa.Return:
				if pos := refusingReturn(u, ins); pos.IsValid() {
					return pos
				}
			case *ssa.Call:
				if exits(ins) {
					return ins.Pos()
				}
			}
		}
		// A return of a phi given a refusing error on this block's edge.
		if len(c.Succs) == 1 {
			for _, ins := range c.Succs[0].Instrs {
				if ret, ok := ins.(*ssa.Return); ok && refusingEdge(u, ret, c) {
					return ret.Pos()
				}
			}
		}
	}
	return token.NoPos
}

// straightFrom returns b and the blocks that follow it while each has one
// successor: the code that runs whenever b does, to the next branch.
func straightFrom(b *ssa.BasicBlock) []*ssa.BasicBlock {
	blocks := []*ssa.BasicBlock{b}
	for c := b; len(c.Succs) == 1 && len(c.Succs[0].Preds) == 1; {
		c = c.Succs[0]
		blocks = append(blocks, c)
	}
	return blocks
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
