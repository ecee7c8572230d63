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
	vars   map[string]value
	locals map[string]bool // declared local: not the script's globals
	own    map[string]bool // file keys written from a child's PID ($!) in this flow
	stdin  value
	params []value      // $1, $2, …
	bg     *syntax.Stmt // the last command started in the background
}

func newEnv(params []value, own map[string]bool) *env {
	e := &env{vars: map[string]value{}, locals: map[string]bool{}, own: map[string]bool{}, params: params}
	maps.Copy(e.own, own)
	return e
}

func (e *env) clone() *env {
	c := *e
	c.vars = maps.Clone(e.vars)
	c.locals = maps.Clone(e.locals)
	c.own = maps.Clone(e.own)
	return &c
}

// merge makes e what it is after either e's path or o's: a variable may
// hold either's value, and a file written from a child's PID on one path
// is taken as the child's (an alarm on a PID the script may have started
// itself would be a false one).
func (e *env) merge(o *env) {
	for name, v := range o.vars {
		e.vars[name] = union(e.vars[name], v)
	}
	for k := range o.own {
		e.own[k] = true
	}
	for k := range o.locals {
		e.locals[k] = true
	}
}
