package shell

import (
	"maps"
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// An analysis follows PIDs through one file: a walk of the top level and
// of each function's body, in source order, with the values of the
// variables at each point (env). Functions are summarised - what their
// callers pass as $1…, what they print - and the walk is repeated until
// the summaries settle, so a PID crosses calls and command
// substitutions; then a last walk records the sinks (probes, signals,
// file tests) and the checks that clear them.
type analysis struct {
	file    *syntax.File
	sums    map[string]*summary // the last round's
	next    map[string]*summary // this round's
	globals map[string]value    // every assignment outside local, the last round's
	nextGl  map[string]value
	final   bool   // the walk that records sinks and checks
	hidden  bool   // the statement walked prints to a file, a pipe or a substitution, not to the user
	scope   string // the function walked, "" for the top level

	fds map[string]string // file descriptor → file key (exec 9>f, ( … ) 9>f)
	*facts
}

// facts are what a walk records, and reports reads: the sinks, the
// checks that clear them, and the PID files locked and written.
type facts struct {
	funcs   map[string]*syntax.FuncDecl
	locks   map[string]bool   // scope + file key: a flock(1) taken on the file in the flow
	lockedF map[string]bool   // file keys a flock(1) is taken on anywhere
	written map[string]bool   // file keys written from $$ or a child's PID
	daemons map[string]string // file key → the program whose $! was written there
	sinks   []*sink
	checks  []check
}

// A summary is what a function's callers pass and get.
type summary struct {
	params []value         // $N: what the calls pass
	out    value           // what it prints
	own    map[string]bool // files written from a child's PID at every call
	called bool
}

// maxRounds bounds the walks over the functions: a PID crosses one more
// call per round.
const maxRounds = 6

func analyze(f *syntax.File) *analysis {
	a := &analysis{file: f, facts: &facts{funcs: map[string]*syntax.FuncDecl{}}, sums: map[string]*summary{}, globals: map[string]value{}}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
			a.funcs[fd.Name.Value] = fd
		}
		return true
	})
	for range maxRounds {
		a.walkAll()
		settled := sameSummaries(a.sums, a.next) && maps.EqualFunc(a.globals, a.nextGl, equal)
		a.sums, a.globals = a.next, a.nextGl
		if settled {
			break
		}
	}
	a.final = true
	a.walkAll()
	return a
}

// walkAll walks the top level and every function once.
func (a *analysis) walkAll() {
	a.next, a.nextGl = map[string]*summary{}, map[string]value{}
	a.fds, a.locks, a.lockedF, a.written, a.daemons = map[string]string{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]string{}
	a.scope = ""
	a.stmts(a.file.Stmts, newEnv(nil, nil))
	for _, name := range slices.Sorted(maps.Keys(a.funcs)) {
		s := a.sums[name]
		if s == nil {
			s = &summary{}
		}
		a.scope = name
		out := a.stmt(a.funcs[name].Body, newEnv(s.params, s.own), nil)
		n := a.summary(name)
		n.out = union(n.out, out)
	}
}

// summary returns this round's summary of the function name.
func (a *analysis) summary(name string) *summary {
	s := a.next[name]
	if s == nil {
		s = &summary{}
		a.next[name] = s
	}
	return s
}

func sameSummaries(a, b map[string]*summary) bool {
	return maps.EqualFunc(a, b, func(x, y *summary) bool {
		return slices.EqualFunc(x.params, y.params, equal) && equal(x.out, y.out) && maps.Equal(x.own, y.own)
	})
}

// A guard is the branch a command's success leads to when that branch
// leaves (exit, return) and its failure does not: "already running".
type guard struct {
	branch []*syntax.Stmt
}

func (a *analysis) stmts(ss []*syntax.Stmt, e *env) value {
	var out value
	for _, s := range ss {
		out = union(out, a.stmt(s, e, nil))
	}
	return out
}

// stmt walks one statement and returns what it prints: its command's
// output unless a redirection sends it to a file. g is set when the
// statement's success leads to leaving.
func (a *analysis) stmt(s *syntax.Stmt, e *env, g *guard) value {
	if s == nil {
		return value{}
	}
	saved := e.stdin
	var toFile *syntax.Word
	quiet := false
	for _, r := range s.Redirs {
		wv := a.word(r.Word, e)
		fd := ""
		if r.N != nil {
			fd = r.N.Value
		}
		switch r.Op {
		case syntax.RdrIn:
			if fd == "" || fd == "0" {
				e.stdin = a.readFile(r.Word, wv, e)
			} else {
				a.fds[fd] = fileKey(text(r.Word))
			}
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrInOut:
			switch fd {
			case "", "1":
				toFile = r.Word
			case "2":
			default:
				a.fds[fd] = fileKey(text(r.Word))
			}
		case syntax.RdrAll, syntax.AppAll:
			toFile = r.Word
		case syntax.DplOut:
			if fd == "" || fd == "1" {
				quiet = true // >&2
			}
		case syntax.WordHdoc:
			e.stdin = wv
		case syntax.Hdoc, syntax.DashHdoc:
			e.stdin = a.word(r.Hdoc, e)
		}
	}
	if s.Negated && g != nil {
		g = nil // ! cmd: its success is the failure that stays
	}
	var out value
	if s.Cmd == nil {
		out = e.stdin // $(< file)
	} else {
		hidden := a.hidden
		a.hidden = hidden || toFile != nil || quiet
		out = a.cmd(s.Cmd, e, g)
		a.hidden = hidden
	}
	e.stdin = saved
	if s.Background {
		e.bg = s
	}
	if toFile != nil {
		key := fileKey(text(toFile))
		if out.own {
			e.own[key] = true
			if d := daemonOf(e.bg); d != "" {
				a.daemons[key] = d
			}
		}
		if out.own || out.self {
			a.written[key] = true
		}
		return value{}
	}
	if quiet {
		return value{}
	}
	return out
}

// cmd walks a command; the simple ones are call's.
func (a *analysis) cmd(c syntax.Command, e *env, g *guard) value {
	switch c := c.(type) {
	case *syntax.CallExpr:
		return a.call(c, e, g)
	case *syntax.BinaryCmd:
		return a.binary(c, e, g)
	case *syntax.IfClause:
		return a.ifClause(c, e)
	case *syntax.WhileClause:
		out := a.stmts(c.Cond, e)
		body := e.clone()
		out = union(out, a.stmts(c.Do, body))
		e.merge(body)
		return out
	case *syntax.ForClause:
		body := e.clone()
		if it, ok := c.Loop.(*syntax.WordIter); ok {
			var v value
			for _, w := range it.Items {
				v = union(v, a.word(w, e))
			}
			if !it.InPos.IsValid() {
				for _, p := range e.params {
					v = union(v, p)
				}
			}
			v.consts = nil
			a.assign(body, it.Name.Value, v, false)
		}
		out := a.stmts(c.Do, body)
		e.merge(body)
		return out
	case *syntax.CaseClause:
		v := a.word(c.Word, e)
		a.compared(v)
		var out value
		var branches []*env // each from e as it was: merged after the last
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				a.word(p, e)
			}
			branch := e.clone()
			out = union(out, a.stmts(item.Stmts, branch))
			branches = append(branches, branch)
		}
		for _, b := range branches {
			e.merge(b)
		}
		return out
	case *syntax.Block:
		return a.stmts(c.Stmts, e)
	case *syntax.Subshell:
		return a.stmts(c.Stmts, e.clone())
	case *syntax.TestClause:
		a.testExpr(c.X, e, g)
	case *syntax.DeclClause:
		a.decl(c, e)
	case *syntax.TimeClause:
		return a.stmt(c.Stmt, e, g)
	case *syntax.CoprocClause:
		a.stmt(c.Stmt, e.clone(), nil)
	case *syntax.TestDecl:
		return a.stmt(c.Body, e.clone(), nil) // a bats test
	case *syntax.FuncDecl:
		// walked as a flow of its own
	}
	return value{}
}

// binary walks a && b, a || b and pipes. b of && and || runs on one path
// only; a pipe's sides run in subshells, b reading what a prints.
func (a *analysis) binary(c *syntax.BinaryCmd, e *env, g *guard) value {
	switch c.Op {
	case syntax.AndStmt, syntax.OrStmt:
		var gx *guard
		switch {
		case c.Op == syntax.AndStmt && g != nil:
			// a && b leaves when b does: its success is b's guard too
		case c.Op == syntax.AndStmt && a.leaves([]*syntax.Stmt{c.Y}):
			gx = &guard{branch: []*syntax.Stmt{c.Y}}
		}
		out := a.stmt(c.X, e, gx)
		other := e.clone()
		var gy *guard
		if c.Op == syntax.AndStmt {
			gy = g
		}
		out = union(out, a.stmt(c.Y, other, gy))
		e.merge(other)
		return out
	}
	left := e.clone()
	hidden := a.hidden
	a.hidden = true
	in := a.stmt(c.X, left, nil)
	a.hidden = hidden
	right := e.clone()
	right.stdin = in
	return a.stmt(c.Y, right, nil)
}

// ifClause walks the condition, then each branch on a copy.
func (a *analysis) ifClause(c *syntax.IfClause, e *env) value {
	var out value
	if len(c.Cond) > 0 {
		out = a.stmts(c.Cond[:len(c.Cond)-1], e)
		last := c.Cond[len(c.Cond)-1]
		var g *guard
		thenLeaves := a.leaves(c.Then)
		elseLeaves := c.Else != nil && len(c.Else.Cond) == 0 && a.leaves(c.Else.Then)
		switch {
		case !last.Negated && thenLeaves && !elseLeaves:
			g = &guard{branch: c.Then}
		case last.Negated && elseLeaves && !thenLeaves:
			g = &guard{branch: c.Else.Then}
		case !last.Negated && !thenLeaves && c.Else != nil && len(c.Else.Cond) == 0 && onlyTells(c.Then) && !onlyTells(c.Else.Then):
			// if [ -f f ]; then echo "running"; else start; fi: the start is the else
			g = &guard{branch: c.Then}
		}
		out = union(out, a.stmt(last, e, g))
	}
	then := e.clone()
	out = union(out, a.stmts(c.Then, then))
	if c.Else != nil {
		other := e.clone()
		out = union(out, a.ifClause(c.Else, other))
		e.merge(other)
	}
	e.merge(then)
	return out
}

// leaves reports whether the statements exit or return at their top
// level, or call a function of the file that always exits (die, fail).
func (a *analysis) leaves(ss []*syntax.Stmt) bool {
	for _, s := range ss {
		switch c := s.Cmd.(type) {
		case *syntax.CallExpr:
			name, _ := constText(firstArg(c))
			if name == "exit" || name == "return" {
				return true
			}
			if fd, ok := a.funcs[name]; ok {
				if b, ok := fd.Body.Cmd.(*syntax.Block); ok && a.leavesPlain(b.Stmts) {
					return true
				}
			}
		case *syntax.Block:
			if a.leaves(c.Stmts) {
				return true
			}
		}
	}
	return false
}

// leavesPlain is leaves without following functions (a function body).
func (a *analysis) leavesPlain(ss []*syntax.Stmt) bool {
	for _, s := range ss {
		if c, ok := s.Cmd.(*syntax.CallExpr); ok {
			if name, _ := constText(firstArg(c)); name == "exit" {
				return true
			}
		}
	}
	return false
}

// tellers are the commands of a branch that only tells the user (and
// leaves): the "already running" branch of an if whose else starts.
var tellers = []string{"echo", "printf", ":", "true", "false", "exit", "return", "log_warning_msg", "log_failure_msg", "log_success_msg", "log_daemon_msg", "log_end_msg", "logger"}

// onlyTells reports whether the statements are all tellers' calls.
func onlyTells(ss []*syntax.Stmt) bool {
	for _, s := range ss {
		c, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			return false
		}
		if name, _ := constText(firstArg(c)); !slices.Contains(tellers, name) {
			return false
		}
	}
	return true
}
