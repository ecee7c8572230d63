package pidflow

import (
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// A unit is one declared function and the function literals inside it,
// followed together: a literal's free variables are its parent's values,
// and the parameters of a literal called in the unit stand for the
// arguments of its calls.
type unit struct {
	f     *Flow
	fn    *ssa.Function   // the declared function (or the package initializer)
	obj   *types.Func     // its object; nil for the initializer
	funcs []*ssa.Function // fn and its literals, outermost first
	size  int             // instructions in all of funcs

	cells    map[ssa.Value]map[string]labels // labels written at places, by root
	bindings map[*ssa.FreeVar]ssa.Value      // a literal's free variables: the values they capture
	args     map[*ssa.Parameter][]ssa.Value  // a literal's parameters: the arguments of its calls here
	returns  map[*ssa.Call][]*ssa.Function   // calls of literals of the unit
	changed  bool                            // a round of the transfer wrote something new

	callers   []*unit                       // the units that call it
	sum       *summary                      // what the unit does, for its callers, being made
	done      *summary                      // the summary of the last round, which callers apply
	conds     []*ssa.If                     // branches on a probe's answer or a PID file's existence, for PL008
	callFlags map[ssa.CallInstruction]flags // what each call adds to the flags
	starts    *bool                         // whether the unit starts a process itself; nil until asked
	// locks are the files the unit (or a function it calls) takes or
	// tests a kernel lock on, by qualifiedKey; "" for a file without a key.
	locks map[string]bool
}

func newUnit(f *Flow, fn *ssa.Function, obj *types.Func) *unit {
	u := &unit{f: f, fn: fn, obj: obj}
	var walk func(*ssa.Function)
	walk = func(g *ssa.Function) {
		u.funcs = append(u.funcs, g)
		for _, b := range g.Blocks {
			u.size += len(b.Instrs)
		}
		for _, a := range g.AnonFuncs {
			walk(a)
		}
	}
	walk(fn)
	return u
}

// reset clears what a round of the transfer learnt, before the next.
func (u *unit) reset() {
	u.cells = map[ssa.Value]map[string]labels{}
	u.bindings = map[*ssa.FreeVar]ssa.Value{}
	u.args = map[*ssa.Parameter][]ssa.Value{}
	u.returns = map[*ssa.Call][]*ssa.Function{}
	u.sum = newSummary()
	u.conds = nil
	u.callFlags = map[ssa.CallInstruction]flags{}
	u.locks = map[string]bool{}
}

// cellsOf returns the labels written below root: the package's for a
// global, the unit's for anything else.
func (u *unit) cellsOf(root ssa.Value) map[string]labels {
	if g, ok := root.(*ssa.Global); ok {
		return u.f.globals[g]
	}
	return u.cells[root]
}

// write adds ls at p and notes whether that was new.
func (u *unit) write(p place, ls labels) {
	if len(ls) == 0 {
		return
	}
	var m map[string]labels
	if g, ok := p.root.(*ssa.Global); ok {
		// A package variable outlives the function: what one of its
		// parameters holds means nothing to the other functions.
		ls = withoutParams(ls)
		if len(ls) == 0 {
			return
		}
		if m = u.f.globals[g]; m == nil {
			m = map[string]labels{}
			u.f.globals[g] = m
		}
	} else if m = u.cells[p.root]; m == nil {
		m = map[string]labels{}
		u.cells[p.root] = m
	}
	cur := m[p.path]
	if len(cur) >= maxSources {
		ls = beyondCap(ls)
	}
	if cur.addAll(ls) {
		m[p.path] = cur
		u.changed = true
		if _, ok := p.root.(*ssa.Global); ok {
			u.f.globalsChanged = true
		}
	}
}

// read returns the labels of the value at p: those written at p or above
// it, and those of the values p stands for.
func (u *unit) read(p place) labels {
	var out labels
	u.readInto(&out, p, new(visited))
	return out
}

// visited are the places a read has been to: most reads see a few, so a
// slice, with a map once it grows.
type visited struct {
	list []place
	set  map[place]bool
}

// first reports whether p was not visited yet, and marks it.
func (v *visited) first(p place) bool {
	if v.set != nil {
		if v.set[p] {
			return false
		}
		v.set[p] = true
		return true
	}
	for _, q := range v.list {
		if q == p {
			return false
		}
	}
	v.list = append(v.list, p)
	if len(v.list) > 16 {
		v.set = make(map[place]bool, 2*len(v.list))
		for _, q := range v.list {
			v.set[q] = true
		}
	}
	return true
}

func (u *unit) readInto(out *labels, p place, seen *visited) {
	if !seen.first(p) {
		return
	}
	cells := u.cellsOf(p.root)
	prefixes(p.path, func(pre string) { out.addAll(cells[pre]) })
	for _, a := range u.aliases(p) {
		u.readInto(out, a, seen)
	}
	switch r := p.root.(type) {
	case *ssa.Parameter:
		if i := u.paramIndex(r); i >= 0 {
			out.add(paramLabel(i, p.path))
		}
	case *ssa.BinOp:
		if p.path == "" {
			out.addAll(u.answerTest(r, seen))
		}
	case *ssa.UnOp:
		if r.Op == token.NOT && p.path == "" {
			var ls labels
			u.readInto(&ls, u.content(r.X), seen)
			for _, l := range ls {
				if l.kind == answer || l.kind == exists {
					l.pol = -l.pol
					out.add(l)
				}
			}
		}
	}
}

// A placed label is a label at a path relative to a place.
type placed struct {
	rel string
	l   label
}

// subtree returns the labels at p and below it, each with its path
// relative to p: what a copy of the value at p carries.
func (u *unit) subtree(p place) []placed {
	var out []placed
	u.subtreeInto(&out, p, new(visited))
	return out
}

func (u *unit) subtreeInto(out *[]placed, p place, seen *visited) {
	if !seen.first(p) {
		return
	}
	for _, l := range u.read(place{p.root, p.path}) {
		*out = append(*out, placed{"", l})
	}
	base, addr := p.path, false
	if n := len(base); n > 0 && base[n-1] == '&' {
		base, addr = base[:n-1], true // a pointer: what it points to comes along
	}
	for path, ls := range u.cellsOf(p.root) {
		var rel string
		switch {
		case path != p.path && under(path, p.path):
			rel = path[len(p.path):]
		case addr && path != base && under(path, base):
			rel = "*" + path[len(base):]
		default:
			continue
		}
		for _, l := range ls {
			*out = append(*out, placed{rel, l})
		}
	}
	for _, a := range u.aliases(p) {
		u.subtreeInto(out, a, seen)
	}
}

// copyTo writes what the value at from carries at to.
func (u *unit) copyTo(to, from place) {
	for _, pl := range u.subtree(from) {
		u.write(to.plus(pl.rel), labels{pl.l})
	}
}

// aliases are the places p stands for: below a phi's edges, a
// conversion's operand, a literal's parameter's arguments, the results of
// a call of a literal.
func (u *unit) aliases(p place) []place {
	var vals []ssa.Value
	switch r := p.root.(type) {
	case *ssa.Phi:
		vals = r.Edges
	case *ssa.ChangeType:
		vals = []ssa.Value{r.X}
	case *ssa.Convert:
		vals = []ssa.Value{r.X}
	case *ssa.MultiConvert:
		vals = []ssa.Value{r.X}
	case *ssa.ChangeInterface:
		vals = []ssa.Value{r.X}
	case *ssa.MakeInterface:
		vals = []ssa.Value{r.X}
	case *ssa.SliceToArrayPointer:
		vals = []ssa.Value{r.X}
	case *ssa.TypeAssert:
		if !r.CommaOk {
			vals = []ssa.Value{r.X}
		}
	case *ssa.UnOp:
		if r.Op == token.SUB || r.Op == token.XOR {
			vals = []ssa.Value{r.X} // -pgid: a process group
		}
	case *ssa.BinOp:
		if r.Op == token.ADD && isString(r.Type()) {
			vals = []ssa.Value{r.X, r.Y} // "/proc/" + pid, dir + "/app.pid"
		}
	case *ssa.Parameter:
		vals = u.args[r]
	case *ssa.Call:
		return u.literalResults(r, p.path)
	}
	out := make([]place, 0, len(vals))
	for _, v := range vals {
		out = append(out, u.content(v).plus(p.path))
	}
	return out
}

// literalResults are the places the results of a call of a literal of
// the unit stand for, below path ("#N…" for one of several results).
func (u *unit) literalResults(call *ssa.Call, path string) []place {
	var out []place
	for _, lit := range u.returns[call] {
		for _, b := range lit.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			switch {
			case len(ret.Results) == 1:
				out = append(out, u.content(ret.Results[0]).plus(path))
			case len(path) > 1 && path[0] == '#':
				end := nextStep(path, 0)
				if i, err := strconv.Atoi(path[1:end]); err == nil && i < len(ret.Results) {
					out = append(out, u.content(ret.Results[i]).plus(path[end:]))
				}
			}
		}
	}
	return out
}

// paramIndex returns the index of prm among the declared function's
// parameters (the receiver first), or -1 for a literal's.
func (u *unit) paramIndex(prm *ssa.Parameter) int {
	if prm.Parent() != u.fn {
		return -1
	}
	for i, p := range u.fn.Params {
		if p == prm {
			return i
		}
	}
	return -1
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// owns reports whether fn is a function literal of the unit.
func (u *unit) owns(fn *ssa.Function) bool {
	if fn.Parent() == nil {
		return false
	}
	for _, g := range u.funcs[1:] {
		if g == fn {
			return true
		}
	}
	return false
}

// pidLabels are the labels of the PID at path below v; deep, those of
// everything below it too (a process object whose Pid field holds it).
func (u *unit) pidLabels(v ssa.Value, path string, deep bool) labels {
	p := u.argPlace(v, path)
	if !deep {
		return u.read(p)
	}
	var out labels
	for _, pl := range u.subtree(p) {
		out.add(pl.l)
	}
	return out
}

// withoutParams returns ls without the labels about the function's
// parameters.
func withoutParams(ls labels) labels {
	out := ls[:0:0]
	for _, l := range ls {
		if l.param < 0 {
			out = append(out, l)
		}
	}
	return out
}

// maxSources bounds the stored PIDs one place holds: where data read from
// files floods a large package's structures, more sources add nothing a
// report needs (one source per signal is reported) and cost quadratic
// work. Labels about parameters, identities and answers are kept.
const maxSources = 64

// beyondCap returns the labels of ls that a place already holding
// maxSources or more still takes: all but further stored Sources.
func beyondCap(ls labels) labels {
	out := ls[:0:0]
	for _, l := range ls {
		if l.src == nil || l.kind != stored {
			out = append(out, l)
		}
	}
	return out
}
