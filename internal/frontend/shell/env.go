package shell

import (
	"maps"

	"mvdan.cc/sh/v3/syntax"
)

// An env is what one flow of a script - its top level, or a function's
// body - knows at a point: its variables, the files it wrote a child's
// PID to, what read gets from standard input, the function's arguments.
// Branches walk copies, merged where they join.
type env struct {
	vars   *vars
	locals map[string]bool // declared local: not the script's globals
	own    map[string]bool // file keys written from a child's PID ($!) in this flow
	stdin  value
	params []value      // $1, $2, …
	bg     *syntax.Stmt // the last command started in the background
}

func newEnv(params []value, own map[string]bool) *env {
	e := &env{vars: &vars{}, locals: map[string]bool{}, own: map[string]bool{}, params: params}
	maps.Copy(e.own, own)
	return e
}

func (e *env) clone() *env {
	c := *e
	c.vars = &vars{parent: e.vars}
	c.locals = maps.Clone(e.locals)
	c.own = maps.Clone(e.own)
	return &c
}

// merge makes e what it is after either e's path or o's: a variable may
// hold either's value, and a file written from a child's PID on one path
// is taken as the child's (an alarm on a PID the script may have started
// itself would be a false one).
func (e *env) merge(o *env) {
	for name, v := range o.setSince(e) {
		if old, ok := e.get(name); !ok || !equal(old, v) {
			e.set(name, union(old, v))
		}
	}
	for k := range o.own {
		e.own[k] = true
	}
	for k := range o.locals {
		e.locals[k] = true
	}
}

// vars are a flow's variables as a layer over those of the env it was
// copied from: a branch holds what it sets, and reads through to the
// flow it branched from. A script's ifs copy the env at every branch; a
// copy of every variable each time made generated scripts (autoconf's
// configure: thousands of variables and ifs) quadratic.
type vars struct {
	m      map[string]value
	parent *vars
}

func (e *env) get(name string) (value, bool) {
	for l := e.vars; l != nil; l = l.parent {
		if v, ok := l.m[name]; ok {
			return v, true
		}
	}
	return value{}, false
}

func (e *env) set(name string, v value) {
	if e.vars.m == nil {
		e.vars.m = map[string]value{}
	}
	e.vars.m[name] = v
}

// setSince are the variables o set since it was copied from e (all it sees,
// if it was not), the latest value of each.
func (o *env) setSince(e *env) map[string]value {
	if o.vars.parent == e.vars {
		return o.vars.m // a branch of e: its own layer
	}
	out := map[string]value{}
	for l := o.vars; l != nil && l != e.vars; l = l.parent {
		for name, v := range l.m {
			if _, later := out[name]; !later {
				out[name] = v
			}
		}
	}
	return out
}
