package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/pidlint/pidlint/internal/shellcmd"
)

// call walks a simple command: assignments, the builtins that set
// variables, function calls, and the commands the checks read.
func (a *analysis) call(c *syntax.CallExpr, e *env, g *guard) value {
	for _, as := range c.Assigns {
		v := a.assignValue(as, e)
		if len(c.Args) == 0 && as.Name != nil {
			a.assign(e, as.Name.Value, v, false)
		}
	}
	if len(c.Args) == 0 {
		return value{}
	}
	vals := make([]value, len(c.Args))
	for i, w := range c.Args {
		vals[i] = a.word(w, e)
	}
	cmd := &command{call: c, args: c.Args[1:], vals: vals[1:], name: a.commandName(c.Args[0], e)}
	for wrappers[cmd.name] && len(cmd.args) > 0 {
		i := wrappedAt(cmd.name, cmd.args)
		if i >= len(cmd.args) {
			return value{}
		}
		cmd.name = a.commandName(cmd.args[i], e)
		cmd.args, cmd.vals = cmd.args[i+1:], cmd.vals[i+1:]
	}
	if _, ok := a.funcs[cmd.name]; ok {
		return a.callFunc(cmd, e)
	}
	switch cmd.name {
	case "local", "declare", "typeset", "export", "readonly":
		a.declArgs(cmd, e)
		return value{}
	case "read":
		a.read(cmd, e)
		return value{}
	case "shift":
		n := 1
		if s, ok := constText(firstOf(cmd.args)); ok && s != "" && s[0] >= '1' && s[0] <= '9' {
			n = int(s[0] - '0')
		}
		e.params = e.params[min(n, len(e.params)):]
		return value{}
	}
	a.sinksOf(cmd, e, g)
	return a.output(cmd, e)
}

// commandName is the program a command word runs: its constant text, or
// for $KILL the one program every constant assigned to KILL names.
func (a *analysis) commandName(w *syntax.Word, e *env) string {
	if s, ok := constText(w); ok {
		return shellcmd.Name(s)
	}
	name := paramName(w)
	if name == "" {
		return ""
	}
	v := a.lookup(e, name)
	prog := ""
	for _, c := range v.consts {
		n := shellcmd.Name(strings.Fields(c + " x")[0])
		if prog != "" && n != prog {
			return ""
		}
		prog = n
	}
	return prog
}

// callFunc records a call of a function of the file: its arguments for
// the function's $N, the files written from a child's PID that it sees;
// and returns what it prints, its $N file names replaced by the
// arguments.
func (a *analysis) callFunc(c *command, e *env) value {
	s := a.summary(c.name)
	for i, v := range c.vals {
		if i == len(s.params) {
			s.params = append(s.params, value{})
		}
		v.consts = nil
		s.params[i] = union(s.params[i], v)
	}
	if !s.called {
		s.own = make(map[string]bool)
		for k := range e.own {
			s.own[k] = true
		}
		s.called = true
	} else {
		for k := range s.own {
			if !e.own[k] {
				delete(s.own, k)
			}
		}
	}
	prev := a.sums[c.name]
	if prev == nil {
		return value{}
	}
	out := prev.out
	out.files = nil
	for _, o := range prev.out.files {
		if o.param > 0 && o.param <= len(c.args) {
			w := c.args[o.param-1]
			o = origin{file: text(w), key: fileKey(text(w)), line: int(w.Pos().Line()), param: positional(w)}
		}
		out.files = append(out.files, o)
	}
	return out
}

// lookup is a variable's value: the flow's, or else what any assignment
// of the script gives it; $! and jobs are the script's children, $$ the
// shell itself, $N the function's arguments.
func (a *analysis) lookup(e *env, name string) value {
	switch {
	case name == "!":
		return value{own: true}
	case name == "$" || name == "BASHPID":
		return value{self: true}
	case name == "@" || name == "*":
		var v value
		for _, p := range e.params {
			v = union(v, p)
		}
		return v
	case len(name) == 1 && name[0] >= '1' && name[0] <= '9':
		if i := int(name[0] - '1'); i < len(e.params) {
			return e.params[i]
		}
		return value{}
	}
	if v, ok := e.get(name); ok {
		return v
	}
	return a.globals[name]
}

// assign sets a variable in the flow, and for a global the script's.
func (a *analysis) assign(e *env, name string, v value, local bool) {
	if local {
		e.locals[name] = true
	}
	e.set(name, v)
	if !e.locals[name] {
		a.nextGl[name] = union(a.nextGl[name], v)
	}
}

func (a *analysis) assignValue(as *syntax.Assign, e *env) value {
	if as.Array != nil {
		var v value
		for _, el := range as.Array.Elems {
			v = union(v, a.word(el.Value, e))
		}
		v.consts = nil
		return v
	}
	v := a.word(as.Value, e)
	if as.Append && as.Name != nil {
		v = union(a.lookup(e, as.Name.Value), v)
	}
	return v
}

// decl walks bash's local, declare, export: a local name starts empty.
func (a *analysis) decl(c *syntax.DeclClause, e *env) {
	local := c.Variant.Value == "local" || (c.Variant.Value == "declare" || c.Variant.Value == "typeset") && a.scope != ""
	for _, as := range c.Args {
		if as.Name == nil {
			a.word(as.Value, e)
			continue
		}
		if as.Naked {
			if local {
				a.assign(e, as.Name.Value, value{}, true)
			}
			continue
		}
		a.assign(e, as.Name.Value, a.assignValue(as, e), local)
	}
}

// declArgs is decl for a shell whose parser sees local x=… as a command
// (POSIX sh, dash): NAME=value words.
func (a *analysis) declArgs(c *command, e *env) {
	local := c.name == "local" || (c.name == "declare" || c.name == "typeset") && a.scope != ""
	for i, w := range c.args {
		lit, ok := w.Parts[0].(*syntax.Lit)
		if !ok {
			continue
		}
		name, _, hasValue := strings.Cut(lit.Value, "=")
		if strings.HasPrefix(name, "-") || name == "" {
			continue
		}
		if !hasValue {
			if local {
				a.assign(e, name, value{}, true)
			}
			continue
		}
		v := c.vals[i]
		if s, ok := constText(w); ok {
			_, s, _ = strings.Cut(s, "=")
			v.consts = []string{s}
		}
		a.assign(e, name, v, local)
	}
}

// read sets its variables to what it reads: the statement's input.
func (a *analysis) read(c *command, e *env) {
	takesValue := map[string]bool{"-p": true, "-d": true, "-n": true, "-N": true, "-t": true, "-u": true, "-a": true, "-i": true}
	in := e.stdin
	in.consts = nil
	for i := 0; i < len(c.args); i++ {
		s, ok := constText(c.args[i])
		if !ok {
			continue
		}
		if strings.HasPrefix(s, "-") {
			if takesValue[s] {
				i++
			}
			continue
		}
		a.assign(e, s, in, false)
	}
}

// word walks a word - the commands of its substitutions run, with their
// sinks - and returns its value.
func (a *analysis) word(w *syntax.Word, e *env) value {
	if w == nil {
		return value{}
	}
	var v value
	for _, p := range w.Parts {
		v = union(v, a.part(p, e))
	}
	if s, ok := constText(w); ok {
		v.consts = []string{s}
	}
	return v
}

func (a *analysis) part(p syntax.WordPart, e *env) value {
	switch p := p.(type) {
	case *syntax.DblQuoted:
		var v value
		for _, q := range p.Parts {
			v = union(v, a.part(q, e))
		}
		return v
	case *syntax.ParamExp:
		var v value
		if p.Param != nil && !p.Length && !p.Excl {
			v = a.lookup(e, p.Param.Value)
			v.consts = nil
		}
		if p.Exp != nil {
			d := a.word(p.Exp.Word, e) // ${pid:-$(cat f)}
			d.consts = nil
			v = union(v, d)
		}
		if p.Repl != nil {
			a.word(p.Repl.Orig, e)
			a.word(p.Repl.With, e)
		}
		return v
	case *syntax.CmdSubst:
		sub := e.clone()
		sub.stdin = value{}
		hidden := a.hidden
		a.hidden = true
		v := a.stmts(p.Stmts, sub)
		a.hidden = hidden
		v.consts = nil
		return v
	case *syntax.ProcSubst:
		a.stmts(p.Stmts, e.clone())
	}
	return value{}
}

// readFile is the value of the text read from the file word w (v its
// value): a PID read from a file, or for /proc/PID/stat, cmdline, comm,
// exe or status the process's data, which a comparison makes a check.
func (a *analysis) readFile(w *syntax.Word, v value, e *env) value {
	if pe, rest, ok := procPath(w); ok {
		id := a.procIdent(pe, rest, e)
		if id == nil {
			return value{}
		}
		return value{ident: id}
	}
	if v.self {
		return value{self: true}
	}
	key := fileKey(text(w))
	if e.own[key] {
		return value{own: true} // written from $! by this flow: its child
	}
	return fromFile(origin{file: text(w), key: key, line: int(w.Pos().Line()), param: positional(w)})
}

// procIdent is what reading /proc/PID/rest tells of the process: its start
// time (stat, field 22), its name (cmdline, comm, exe, status); nil for
// other files.
func (a *analysis) procIdent(pe *syntax.ParamExp, rest string, e *env) *ident {
	pid := a.lookup(e, pe.Param.Value)
	id := &ident{pidVar: pe.Param.Value, files: keys(pid)}
	switch rest {
	case "stat":
		id.start = true
	case "cmdline", "comm", "exe", "status":
	default:
		return nil
	}
	return id
}

// output is what a command prints, as far as a PID goes: a file's text,
// its input passed through, echo's arguments, the children jobs lists.
func (a *analysis) output(c *command, e *env) value {
	switch {
	case c.name == "echo" || c.name == "printf":
		var v value
		for _, x := range c.vals {
			v = union(v, x)
		}
		v.consts = nil
		return v
	case c.name == "jobs":
		return value{own: true}
	case c.name == "ps":
		return a.psOutput(c, e)
	case fileReaders[c.name]:
		files := operands(c, 0)
		if len(files) == 0 {
			return e.stdin
		}
		var v value
		for _, i := range files {
			if c.name == "readlink" || c.name == "realpath" {
				if pe, rest, ok := procPath(c.args[i]); ok && rest == "exe" {
					v.ident = a.procIdent(pe, "exe", e)
				}
				continue
			}
			v = union(v, a.readFile(c.args[i], c.vals[i], e))
		}
		return v
	case filters[c.name]:
		v := e.stdin
		if c.name == "tr" || c.name == "xargs" || c.name == "tee" {
			return v
		}
		for _, i := range operands(c, 1) {
			v = union(v, a.readFile(c.args[i], c.vals[i], e))
		}
		return v
	}
	return value{}
}
