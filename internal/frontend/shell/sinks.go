package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/pidlint/pidlint/internal/shellcmd"
)

// A sink is a command that probes, signals or tests a PID or a PID file,
// recorded by the last walk; report decides which are findings.
type sink struct {
	rule   string
	node   syntax.Node // the command or test
	what   string      // as the message names it: kill -0, [ -d /proc/$pid ]
	pid    value       // the PID; for SH003 none
	pidVar string      // the variable holding it, "" if none
	scope  string
	guard  *guard
	file   *syntax.Word // SH003: the file tested
	signal string       // SH002: the signal sent
}

// A check is a comparison of a process's start time or name with the
// expected one, which clears the sinks on the same PID in its flow.
type check struct {
	scope  string
	pidVar string
	files  []string
	start  bool
}

// Rules' IDs.
const (
	ruleProbe  = "SH001"
	ruleSignal = "SH002"
	ruleGuard  = "SH003"
)

// fileTests are the test operators that ask whether a path exists.
var fileTests = map[string]bool{"-e": true, "-a": true, "-d": true, "-f": true, "-x": true, "-r": true, "-s": true, "-L": true, "-h": true}

// existsTests are those of a PID file guard.
var existsTests = map[string]bool{"-e": true, "-a": true, "-f": true, "-r": true, "-s": true}

// sinksOf records the sinks and checks a simple command is.
func (a *analysis) sinksOf(c *command, e *env, g *guard) {
	if !a.final {
		return
	}
	texts := c.consts()
	switch c.name {
	case "[", "test":
		a.testArgs(c, texts, e, g)
		return
	case "flock":
		a.flock(c, texts)
		return
	case "grep", "egrep", "fgrep":
		a.compared(e.stdin)
	case "xargs":
		if i := wrappedAt("xargs", c.args); i < len(c.args) && a.commandName(c.args[i], e) == "kill" {
			// … | xargs kill: kill's last argument is what xargs reads
			read := &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{}}} // not a constant
			k := &command{name: "kill", call: c.call, args: append(slices.Clone(c.args[i+1:]), read), vals: append(slices.Clone(c.vals[i+1:]), e.stdin)}
			a.sinksOf(k, e, g)
		}
		return
	}
	if i := shellcmd.PIDFileArg(c.name, texts); i >= 0 && c.name == "pgrep" {
		if v := a.readFile(c.args[i], c.vals[i], e); v.pidFile() {
			a.addSink(&sink{rule: ruleProbe, node: c.call, what: "pgrep -F", pid: v, guard: g})
		}
		return
	}
	switch p := shellcmd.Classify(c.name, texts); p {
	case shellcmd.KillZero, shellcmd.PsPID:
		if p == shellcmd.PsPID && !a.hidden && listing(texts) {
			return // ps -f -p "$pid" shown to the user: what the number is, not a verdict
		}
		for i, v := range c.vals {
			if _, isConst := constText(c.args[i]); !isConst && v.pidFile() {
				what := p.What()
				if p == shellcmd.PsPID && !slices.ContainsFunc(texts, func(s string) bool { return strings.HasPrefix(s, "-") || s == "p" }) {
					what = "ps PID"
				}
				a.addSink(&sink{rule: ruleProbe, node: c.call, what: what, pid: v, pidVar: paramName(c.args[i]), guard: g})
				break
			}
		}
		return
	}
	args := make([]shellcmd.Arg, len(c.args))
	for i, w := range c.args {
		_, isConst := constText(w)
		args[i] = shellcmd.Arg{Text: texts[i], Var: !isConst}
	}
	if i := shellcmd.PIDFileArg(c.name, texts); i >= 0 {
		args[i].Var = true
	}
	sig, ok := shellcmd.SignalOf(c.name, args)
	if !ok || sig.Windows {
		return
	}
	v := c.vals[sig.PID]
	what := c.name
	if sig.FromFile {
		v = a.readFile(c.args[sig.PID], v, e)
		what = c.name + " -F"
	}
	if v.pidFile() {
		a.addSink(&sink{rule: ruleSignal, node: c.call, what: what, signal: sig.What, pid: v, pidVar: paramName(c.args[sig.PID]), guard: g})
	}
}

// testArgs reads [ … ] and test …: /proc/PID tests, PID file guards, and
// comparisons of a process's data.
func (a *analysis) testArgs(c *command, texts []string, e *env, g *guard) {
	n := len(c.args)
	if c.name == "[" && n > 0 && texts[n-1] == "]" {
		n--
	}
	compares := false
	for i := range n {
		switch texts[i] {
		case "=", "==", "!=":
			compares = true
		case "-o", "!":
			g = nil // either test, or the negation, decides
		}
	}
	if compares {
		for _, v := range c.vals[:n] {
			a.compared(v)
		}
	}
	for i := 0; i+1 < n; i++ {
		if fileTests[texts[i]] && texts[i+1] != "=" && texts[i+1] != "!=" {
			a.fileTest(c.call, c.name, texts[i], c.args[i+1], e, g)
		}
	}
}

// testExpr reads a [[ … ]] expression as testArgs reads [ … ].
func (a *analysis) testExpr(x syntax.TestExpr, e *env, g *guard) {
	switch x := x.(type) {
	case *syntax.Word:
		a.word(x, e)
	case *syntax.ParenTest:
		a.testExpr(x.X, e, g)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			g = nil
		}
		w, isWord := x.X.(*syntax.Word)
		if !isWord {
			a.testExpr(x.X, e, g)
			return
		}
		a.word(w, e)
		if op := x.Op.String(); fileTests[op] {
			a.fileTest(x, "[[", op, w, e, g)
		}
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest, syntax.OrTest:
			a.testExpr(x.X, e, nil)
			a.testExpr(x.Y, e, nil)
			return
		}
		vals := []value{a.testValue(x.X, e), a.testValue(x.Y, e)}
		switch x.Op {
		case syntax.TsMatch, syntax.TsNoMatch, syntax.TsMatchShort, syntax.TsReMatch:
			for _, v := range vals {
				a.compared(v)
			}
		}
	}
}

func (a *analysis) testValue(x syntax.TestExpr, e *env) value {
	if w, ok := x.(*syntax.Word); ok {
		return a.word(w, e)
	}
	a.testExpr(x, e, nil)
	return value{}
}

// fileTest records a test of a path: on /proc/PID a probe, on another
// file in a guard a PID file guard candidate.
func (a *analysis) fileTest(at syntax.Node, cmd, op string, w *syntax.Word, e *env, g *guard) {
	what := cmd + " " + op + " " + text(w)
	switch cmd {
	case "[":
		what += " ]"
	case "[[":
		what += " ]]"
	}
	if pe, _, ok := procPath(w); ok {
		if v := a.lookup(e, pe.Param.Value); v.pidFile() {
			a.addSink(&sink{rule: ruleProbe, node: at, what: what, pid: v, pidVar: pe.Param.Value, guard: g})
		}
		return
	}
	if g != nil && existsTests[op] {
		a.addSink(&sink{rule: ruleGuard, node: at, what: what, file: w, guard: g})
	}
}

// compared records a check when v is a process's data: it is compared.
func (a *analysis) compared(v value) {
	if v.ident != nil && a.final {
		a.checks = append(a.checks, check{scope: a.scope, pidVar: v.ident.pidVar, files: v.ident.files, start: v.ident.start})
	}
}

// psOutput is what ps prints of a PID: its start time or name for -o
// lstart= or comm=, and its name in the default listing.
func (a *analysis) psOutput(c *command, e *env) value {
	texts := c.consts()
	name, start := shellcmd.PsFields(texts)
	if !name && !start && shellcmd.Classify("ps", texts) == shellcmd.NoProbe {
		return value{}
	}
	for i, w := range c.args {
		if _, isConst := constText(w); !isConst {
			return value{ident: &ident{pidVar: paramName(w), files: keys(c.vals[i]), start: start}}
		}
	}
	return value{}
}

// flock records the file a flock(1) command locks: its file operand, or
// the file its descriptor operand was opened on.
func (a *analysis) flock(c *command, texts []string) {
	for i := 0; i < len(c.args); i++ {
		s := texts[i]
		switch {
		case s == "-w" || s == "--wait" || s == "--timeout" || s == "-E" || s == "--conflict-exit-code":
			i++
		case strings.HasPrefix(s, "-") && len(s) > 1:
		case s != "" && strings.Trim(s, "0123456789") == "":
			if f, ok := a.fds[s]; ok {
				a.lock(f)
			}
			return
		default:
			a.lock(fileKey(text(c.args[i])))
			return
		}
	}
}

// lock records a flock(1) on the file key in the flow walked.
func (a *analysis) lock(key string) {
	a.locks[a.scope+"\x00"+key] = true
	a.lockedF[key] = true
}

func (a *analysis) addSink(s *sink) {
	if !a.final {
		return
	}
	s.scope = a.scope
	a.sinks = append(a.sinks, s)
}

// listing reports whether ps's options ask for a full or long listing
// (-f, -F, -l, -j, -ef) to show the user, not a status to test.
func listing(texts []string) bool {
	return slices.ContainsFunc(texts, func(t string) bool {
		return strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t[1:], "fFlj") && !strings.ContainsAny(t[1:], "o")
	})
}
