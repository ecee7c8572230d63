package pidflow

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A call is one call instruction of a unit, run in the transfer or
// observed once the labels have converged.
type call struct {
	u    *unit
	f    *Flow
	ins  ssa.CallInstruction
	fn   *types.Func // the callee, nil when not known
	args []ssa.Value // the arguments, a method's receiver first
}

// run runs the call: a literal of the unit (lit) is wired in place; a
// function of the package, or of another package with a fact, is applied
// through its summary; any other is one pidlint knows, or nothing. With
// observe, it records what the call reaches instead of what it writes.
func (c *call) run(lit *ssa.Function, observe bool) {
	u := c.u
	if observe {
		// What the call adds to the unit's flags is its own too (PL008
		// asks it of calls that are not deferred).
		saved := u.sum.flags
		u.sum.flags = 0
		defer func() {
			u.callFlags[c.ins] = u.sum.flags
			u.sum.flags |= saved
		}()
	}
	switch obj := c.fn; {
	case lit != nil && u.owns(lit):
		if !observe {
			c.wire(lit)
		}
	case obj == nil:
	case knownPackage(pkgPath(obj)):
		c.known(observe)
	case c.f.unitOf[obj.Origin()] != nil:
		if s := c.f.unitOf[obj.Origin()].done; s != nil {
			c.apply(s, observe)
		}
	case c.f.imported(obj) != nil:
		c.apply(c.f.imported(obj), observe)
	default:
		c.known(observe)
	}
}

// calleeOf returns the function a call invokes, when it is known, and its
// arguments with the receiver first: for a method value (p.Signal), the
// method and the value it is bound to; for an interface method, only the
// method's object.
func calleeOf(c *ssa.CallCommon) (*ssa.Function, *types.Func, []ssa.Value) {
	if c.IsInvoke() {
		return nil, c.Method, append([]ssa.Value{c.Value}, c.Args...)
	}
	fn := c.StaticCallee()
	if fn == nil {
		return nil, nil, c.Args
	}
	obj, _ := fn.Object().(*types.Func)
	if strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
		if mc, ok := c.Value.(*ssa.MakeClosure); ok && len(mc.Bindings) == 1 {
			return nil, obj, append([]ssa.Value{mc.Bindings[0]}, c.Args...)
		}
		return nil, nil, c.Args
	}
	return fn, obj, c.Args
}

// wire makes a literal's parameters stand for a call's arguments, and the
// call's results for the literal's.
func (c *call) wire(lit *ssa.Function) {
	u, ins, args := c.u, c.ins, c.args
	for i, prm := range lit.Params {
		if i < len(args) && !containsValue(u.args[prm], args[i]) {
			u.args[prm] = append(u.args[prm], args[i])
			u.changed = true
		}
	}
	if call, ok := ins.(*ssa.Call); ok && !containsFunc(u.returns[call], lit) {
		u.returns[call] = append(u.returns[call], lit)
		u.changed = true
	}
}

// result is the place of a call's result i.
func result(ins ssa.CallInstruction, i int) (place, bool) {
	call, ok := ins.(*ssa.Call)
	if !ok {
		return place{}, false // go and defer drop results
	}
	if call.Call.Signature().Results().Len() > 1 {
		return place{call, resultStep(i)}, true
	}
	return place{call, ""}, true
}

// apply runs the call through the callee's summary: in the transfer,
// the labels it hands back; observing, the signals, checks, locks and
// flags it stands for.
func (c *call) apply(s *summary, observe bool) {
	u, ins, args := c.u, c.ins, c.args
	if !observe {
		for j, pls := range s.results {
			if to, ok := result(ins, j); ok {
				for _, pl := range pls {
					u.write(to.plus(pl.rel), c.translate(pl.l))
				}
			}
		}
		for i, pls := range s.params {
			if i < len(args) {
				for _, pl := range pls {
					u.write(u.content(args[i]).plus(pl.rel), c.translate(pl.l))
				}
			}
		}
		return
	}
	for _, ps := range s.signals {
		c.applySignal(ps)
	}
	for _, pc := range s.checks {
		if pc.wideElsewhere && !pc.wide.IsValid() {
			pc.wide = ins.Pos()
		}
		if pc.param < len(args) {
			for _, l := range u.read(u.argPlace(args[pc.param], pc.path)).ofKind(stored) {
				u.checkPID(l, pc)
			}
		}
	}
	for _, key := range s.locks {
		c.lock(rekey(key, args))
	}
	if c.fn == u.obj {
		return // recursion: the function's own flags
	}
	u.sum.flags |= s.flags &^ fStarts // a callee's child is not this function's
	if s.flags&fBlindProbe != 0 || s.answers() {
		u.sum.flags |= fBlindProbe
		u.sum.probe(ins.Pos())
	}
}

// applySignal records a callee's signal of its parameter: reached by
// the stored PIDs the argument holds here (reported at this call, where
// the stored PID is passed), and this function's own for its
// parameters.
func (c *call) applySignal(ps paramSignal) {
	u, ins, args := c.u, c.ins, c.args
	if ps.param >= len(args) {
		return
	}
	sigParam, sigText := -1, ps.sigText
	if ps.sigParam >= 0 {
		if ps.sigParam >= len(args) {
			return
		}
		sig := args[ps.sigParam]
		if isZero(sig) {
			return // a probe, or no signal at all
		}
		if prm, ok := unconvert(sig).(*ssa.Parameter); ok {
			sigParam = u.paramIndex(prm)
		}
		if e := u.f.argExpr(ins, ps.sigParam); e != nil && sigParam < 0 {
			sigText = types.ExprString(e) // fixed here: term(pid) calls maybeSignal(pid, SIGTERM)
		}
	}
	u.sum.flags |= fSignals
	for _, l := range u.pidLabels(args[ps.param], ps.path, ps.site.process) {
		switch {
		case l.kind != stored:
		case l.src != nil:
			c.f.viaSite(c, ps).reach(l.src)
		case l.param >= 0:
			u.sum.signal(paramSignal{param: l.param, path: l.path, sigParam: sigParam, site: ps.site, sigText: sigText})
		}
	}
}

// reachSite records that the stored PID l reaches site: a Source's
// read, or this function's parameter for its summary.
func (c *call) reachSite(site *sinkSite, l label, sigParam int) {
	u := c.u
	switch {
	case l.kind != stored:
	case l.src != nil:
		site.reach(l.src)
	case l.param >= 0:
		u.sum.signal(paramSignal{param: l.param, path: l.path, sigParam: sigParam, site: site})
	}
}

// translate returns what a label of a callee's summary is at a call: a
// parameter's labels become the argument's; a Source read in the callee
// becomes one of its own for this call.
func (c *call) translate(l label) labels {
	u, ins, args := c.u, c.ins, c.args
	switch {
	case l.param >= 0:
		if l.param >= len(args) {
			return nil
		}
		var out labels
		for _, a := range u.read(u.argPlace(args[l.param], l.path)) {
			switch {
			case l.kind == stored:
				out.add(a)
			case a.kind == stored:
				d := a.of(l.kind)
				d.pol, d.pos = l.pol, ins.Pos()
				out.add(d)
			}
		}
		return out
	case l.src != nil && l.kind == stored && startsProcess(u):
		return nil // the PID file of a child this function started: fresh
	case l.src != nil:
		l.src = u.f.derived(l.src, ins, args)
		if l.kind == answer {
			l.pos = ins.Pos()
		}
	case l.kind == fileOf:
		l.key = rekey(l.key, args)
	}
	return labels{l}
}

func containsValue(vs []ssa.Value, v ssa.Value) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

func containsFunc(fs []*ssa.Function, f *ssa.Function) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}
