package pidflow

import (
	"go/token"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// A GuardKind is how a PID file refuses a start.
type GuardKind uint8

const (
	// ExclusiveNoRecovery: a PID file created with O_EXCL, with no
	// stale-file recovery. The report stands on the create.
	ExclusiveNoRecovery GuardKind = iota
	// ExclusiveBlindRecovery: the same, recovered only when a
	// reuse-blind probe of the PID it names says dead. The report stands
	// on the probe; Create is the create.
	ExclusiveBlindRecovery
	// ExistenceGuard: the start is refused while the PID file exists
	// (os.Stat). The report stands on the Stat.
	ExistenceGuard
	// LivenessGuard: the start is refused while a reuse-blind probe
	// says the PID read from the PID file is alive. The report stands
	// on the probe.
	LivenessGuard
)

// A Guard is a PID file used as the single-instance guard without a
// kernel lock: a file a crash leaves blocks every later start.
type Guard struct {
	Kind     GuardKind
	Pos, End token.Pos // where the report stands
	Create   token.Pos // the O_EXCL create, for Exclusive*
	Refusal  token.Pos // where the start is refused, for the others
}

// A create is an os.OpenFile with O_EXCL.
type create struct {
	call ssa.CallInstruction
	unit *unit
	path ssa.Value
}

// Guards returns the package's PID-file guards, in source order, when it
// writes its own PID (keeps a PID file).
func (f *Flow) Guards() []Guard {
	if !f.WritesOwnPID() {
		return nil
	}
	byPos := map[token.Pos]Guard{}
	add := func(g Guard) {
		if old, ok := byPos[g.Pos]; !ok || g.Kind < old.Kind {
			byPos[g.Pos] = g
		}
	}
	for _, c := range f.creates {
		f.exclusiveGuards(c, add)
	}
	for _, u := range f.units {
		if u.sum.flags&(fLocks|fVerifies|fSignals) != 0 {
			continue // a lock, an identity check, or a stop command
		}
		for _, cond := range u.conds {
			condGuards(u, cond, add)
		}
	}
	out := make([]Guard, 0, len(byPos))
	for _, g := range byPos {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// exclusiveGuards checks an O_EXCL create: what runs around it (its
// function and the functions that call it, but for deferred calls, which
// a SIGKILL skips) is its recovery.
func (f *Flow) exclusiveGuards(c *create, add func(Guard)) {
	if key := qualifiedKey(pathKey(c.path), c.unit.obj); key != "" && f.safeLocked[key] {
		return
	}
	scope := append([]*unit{c.unit}, f.callersOf(c.unit)...)
	var fl flags
	for _, u := range scope {
		fl |= flagsNoDefer(u)
	}
	switch {
	case fl&fOwnPID == 0:
		return // not a PID file: an exclusive temp or marker file
	case fl&(fLocks|fVerifies) != 0:
		return
	case fl&fRemoves == 0:
		pos, end := f.callRange(c.call)
		add(Guard{Kind: ExclusiveNoRecovery, Pos: pos, End: end, Create: pos})
	case fl&fBlindProbe != 0:
		create, _ := f.callRange(c.call)
		for _, u := range scope {
			for ins, cf := range u.callFlags {
				if cf&fBlindProbe != 0 && !isDeferred(ins) {
					pos, end := f.callRange(ins)
					add(Guard{Kind: ExclusiveBlindRecovery, Pos: pos, End: end, Create: create})
				}
			}
		}
	}
}

// condGuards checks a branch on a probe's answer or a PID file's
// existence: a start refused where the probe says alive, or where the
// file exists with nothing there to recover it.
func condGuards(u *unit, cond *ssa.If, add func(Guard)) {
	succs := cond.Block().Succs
	for _, l := range u.read(u.content(cond.Cond)) {
		if l.pol == 0 || l.kind != answer && l.kind != exists || l.kind == answer && l.src == nil {
			continue
		}
		yes := succs[0] // where the probe says alive, or the file exists
		if l.pol < 0 {
			yes = succs[1]
		}
		refused := refusal(u, yes)
		if !refused.IsValid() {
			continue
		}
		pos, end := u.f.callRangeAt(l.pos)
		switch l.kind {
		case answer:
			add(Guard{Kind: LivenessGuard, Pos: pos, End: end, Refusal: refused})
		case exists:
			if recovers(u, yes) {
				continue // removed, probed, checked or locked there
			}
			add(Guard{Kind: ExistenceGuard, Pos: pos, End: end, Refusal: refused})
		}
	}
}

// flagsNoDefer are the flags of the unit's calls but for deferred ones.
func flagsNoDefer(u *unit) flags {
	var fl flags
	for ins, cf := range u.callFlags {
		if !isDeferred(ins) {
			fl |= cf
		}
	}
	return fl
}

func isDeferred(ins ssa.CallInstruction) bool {
	_, ok := ins.(*ssa.Defer)
	return ok
}

// recovers reports whether the code in the blocks b dominates removes the
// file, probes a PID, checks an identity or takes a lock.
func recovers(u *unit, b *ssa.BasicBlock) bool {
	for _, c := range b.Parent().Blocks {
		if !b.Dominates(c) {
			continue
		}
		for _, ins := range c.Instrs {
			if ci, ok := ins.(ssa.CallInstruction); ok && u.callFlags[ci]&(fRemoves|fBlindProbe|fVerifies|fLocks) != 0 {
				return true
			}
		}
	}
	return false
}

// callersOf returns the units that call u's function.
func (f *Flow) callersOf(u *unit) []*unit {
	var out []*unit
	for _, v := range f.units {
		if v == u {
			continue
		}
		calls := false
		v.each(func(ins ssa.Instruction) {
			if ci, ok := ins.(ssa.CallInstruction); ok && !calls {
				if fn := ci.Common().StaticCallee(); fn != nil && fn.Object() != nil && fn.Object() == u.obj {
					calls = true
				}
			}
		})
		if calls {
			out = append(out, v)
		}
	}
	return out
}

// callRangeAt is the span of the call whose SSA position (its Lparen) is
// pos.
func (f *Flow) callRangeAt(pos token.Pos) (token.Pos, token.Pos) {
	if call := f.callAt[pos]; call != nil {
		return call.Pos(), call.End()
	}
	return pos, pos
}
