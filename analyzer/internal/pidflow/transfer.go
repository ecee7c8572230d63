package pidflow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// maxPasses bounds the passes over a unit's instructions until what they
// write stops changing (loops carry labels back to their heads).
const maxPasses = 8

// transfer runs the unit's instructions until the labels they write stop
// changing, then observes what the converged labels reach.
func (u *unit) transfer() {
	u.reset()
	for range maxPasses {
		u.changed = false
		u.each(u.step)
		if !u.changed {
			break
		}
	}
	u.each(u.observe)
	u.finish()
}

// each calls f with every instruction of the unit.
func (u *unit) each(f func(ssa.Instruction)) {
	for _, fn := range u.funcs {
		for _, b := range fn.Blocks {
			for _, ins := range b.Instrs {
				f(ins)
			}
		}
	}
}

// step runs one instruction: it writes the labels it moves to memory,
// channels, closures and call results.
func (u *unit) step(ins ssa.Instruction) {
	switch ins := ins.(type) {
	case *ssa.Store:
		// A PID the program assigns to a field is its own bookkeeping,
		// whose life (a child it started, a check its callers make) one
		// function does not show: followed across functions it made
		// false alarms on real code. A field decoded from a state file
		// is followed (fill).
		u.copyTo(u.cell(ins.Addr), u.content(ins.Val))
	case *ssa.UnOp:
		for fa, ok := ins.X.(*ssa.FieldAddr); ok && ins.Op == token.MUL; fa, ok = fa.X.(*ssa.FieldAddr) {
			u.fieldLoad(ins, fa.X.Type(), fa.Field) // r.state.Pid: state's, and Pid's
		}
	case *ssa.Field:
		u.fieldLoad(ins, ins.X.Type(), ins.Field)
	case *ssa.MapUpdate:
		m := u.content(ins.Map).plus("[]")
		u.copyTo(m, u.content(ins.Value))
		u.copyTo(m, u.content(ins.Key))
	case *ssa.Send:
		u.copyTo(u.content(ins.Chan).plus("[]"), u.content(ins.X))
	case *ssa.MakeClosure:
		if lit, ok := ins.Fn.(*ssa.Function); ok {
			for i, b := range ins.Bindings {
				if i < len(lit.FreeVars) && u.bindings[lit.FreeVars[i]] != b {
					u.bindings[lit.FreeVars[i]] = b
					u.changed = true
				}
			}
		}
	case ssa.CallInstruction:
		u.call(ins, false)
	}
}

// call runs (or, with observe, observes) a call instruction.
func (u *unit) call(ins ssa.CallInstruction, observe bool) {
	c := &call{u: u, f: u.f, ins: ins}
	var lit *ssa.Function
	lit, c.fn, c.args = calleeOf(ins.Common())
	c.run(lit, observe)
}

// observe looks at one instruction once the labels have converged: what
// reaches a signal, a comparison, a branch or a return.
func (u *unit) observe(ins ssa.Instruction) {
	switch ins := ins.(type) {
	case *ssa.BinOp:
		u.compare(ins)
	case *ssa.FieldAddr:
		u.lockState(ins.X, ins.X.Type(), ins.Field)
	case *ssa.Field:
		u.lockState(ins.X, ins.X.Type(), ins.Field)
	case *ssa.If:
		for _, l := range u.read(u.content(ins.Cond)) {
			if l.kind == answer || l.kind == exists {
				u.conds = append(u.conds, ins)
				break
			}
		}
	case *ssa.Return:
		if ins.Parent() != u.fn {
			return // a literal's: its results are its caller's business
		}
		for j, r := range ins.Results {
			for _, pl := range u.subtree(u.content(r)) {
				u.sum.out(j, -1, pl.rel, pl.l)
			}
		}
	case ssa.CallInstruction:
		u.call(ins, true)
	}
}

// finish completes the unit's summary: what it wrote below its
// parameters.
func (u *unit) finish() {
	for i, prm := range u.fn.Params {
		for path, ls := range u.cells[prm] {
			if path == "" {
				continue
			}
			for _, l := range ls {
				u.sum.out(-1, i, path, l)
			}
		}
	}
}

// compare notes what a comparison checks: an identity compared verifies
// the PID it belongs to; a PID compared with a small constant is checked
// to be > 0, with a larger one bounded.
func (u *unit) compare(b *ssa.BinOp) {
	switch b.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return
	}
	for _, pair := range [][2]ssa.Value{{b.X, b.Y}, {b.Y, b.X}} {
		ls := u.read(u.content(pair[0]))
		u.verify(ls)
		c, ok := intConst(pair[1])
		if !ok {
			continue
		}
		relational := b.Op != token.EQL && b.Op != token.NEQ
		for _, l := range ls.ofKind(stored) {
			u.checkPID(l, paramCheck{checked: c <= 1, bounded: c > 1 && relational})
		}
	}
}

// verify records that the identities among ls were compared: the PIDs
// they belong to are checked.
func (u *unit) verify(ls labels) {
	for _, l := range ls.ofKind(identity) {
		u.checkPID(l, paramCheck{checks: check(l.pol)})
	}
}

// checkPID records a check of the PID l is about: on its Source, or in
// the summary for a parameter.
func (u *unit) checkPID(l label, c paramCheck) {
	if c.checks != 0 {
		u.sum.flags |= fVerifies
	}
	if l.src != nil {
		l.src.checks |= c.checks
		l.src.checked = l.src.checked || c.checked
		l.src.bounded = l.src.bounded || c.bounded
		if !l.src.wide.IsValid() {
			l.src.wide = c.wide
		}
		return
	}
	if l.param >= 0 && (c.checks != 0 || c.checked || c.bounded || c.wide.IsValid()) {
		u.sum.check(l.param, l.path, c)
	}
}

// answerTest returns the answers a comparison of a probe's answer with
// nil, true or false gives: "err == nil" says alive where a nil err
// does.
func (u *unit) answerTest(b *ssa.BinOp, seen *visited) labels {
	if b.Op != token.EQL && b.Op != token.NEQ {
		return nil
	}
	var out labels
	for _, pair := range [][2]ssa.Value{{b.X, b.Y}, {b.Y, b.X}} {
		sign := 0
		switch c := unconvert(pair[1]).(type) {
		case *ssa.Const:
			switch {
			case c.IsNil():
				sign = 1
			case c.Value != nil && types.Identical(c.Type().Underlying(), types.Typ[types.Bool]):
				sign = -1
				if c.Value.String() == "true" {
					sign = 1
				}
			}
		}
		if sign == 0 {
			continue
		}
		if b.Op == token.NEQ {
			sign = -sign
		}
		var ls labels
		u.readInto(&ls, u.content(pair[0]), seen)
		for _, l := range ls {
			if l.kind == answer || l.kind == exists {
				l.pol *= sign
				out.add(l)
			}
		}
	}
	return out
}

// lockState notes a read of safeprobe's Status.Held or Stale: whether the
// lock's owner still holds it vouches for the PID the record names.
func (u *unit) lockState(x ssa.Value, t types.Type, field int) {
	name := fieldName(t, field)
	if name != "Held" && name != "Stale" {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !calls.IsSafeprobe(n.Obj().Pkg(), u.f.cls.Safeprobe) {
		return
	}
	for _, l := range u.pidLabels(x, "", true).ofKind(stored) {
		u.checkPID(l, paramCheck{checks: checkLock})
	}
}

// packageField returns field i of the struct type t (or *t) when the
// package declares it and it may hold a PID.
func (u *unit) packageField(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	f := st.Field(i)
	if f.Pkg() != u.f.pass.Pkg || !holdsRecord(f.Type(), 0) {
		return nil
	}
	return f
}

// fill writes ls where target points, and notes them as given to the
// field of the package target may be the address of (json.Unmarshal(data,
// &r.state)).
func (u *unit) fill(target ssa.Value, ls labels) {
	target = unconvert(target)
	u.write(u.pointee(target), ls)
	u.fieldStore(target, ls)
}

// fieldStore notes the stored PIDs among ls decoded at addr, when addr
// is the address of a field of the package.
func (u *unit) fieldStore(addr ssa.Value, ls labels) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	f := u.packageField(fa.X.Type(), fa.Field)
	if f == nil {
		return
	}
	cur := u.f.fields[f]
	for _, l := range ls.ofKind(stored) {
		if l.src != nil && cur.add(l) {
			u.f.fieldsChanged = true
		}
	}
	u.f.fields[f] = cur
}

// fieldLoad gives a read of a field of the package the stored PIDs the
// field is given anywhere in it.
func (u *unit) fieldLoad(v ssa.Value, t types.Type, i int) {
	if f := u.packageField(t, i); f != nil && len(u.f.fields[f]) > 0 {
		u.write(u.content(v), u.f.fields[f])
	}
}

// mayHoldPID reports whether a value of type t can be a PID, or a
// process that holds one.
func mayHoldPID(t types.Type) bool {
	switch t := t.Underlying().(type) {
	case *types.Basic:
		return t.Info()&types.IsInteger != 0
	case *types.Pointer:
		n, ok := types.Unalias(t.Elem()).(*types.Named)
		return ok && n.Obj().Name() == "Process"
	}
	return false
}
