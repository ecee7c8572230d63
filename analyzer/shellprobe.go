package analyzer

import (
	"go/ast"
	"go/types"
	"path"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

var shellProbeRule = Rule{
	ID:      "PL005",
	Name:    "shell-probe",
	Title:   "a shell command used as a liveness test",
	Summary: "`kill -0`, `ps -p`, `pgrep`, `pkill -0`, `lsof -p`, `tasklist /FI \"PID eq N\"` run through `os/exec`",
	Text: `exec.Command running "kill -0", "ps -p", "pgrep", "pkill -0", "lsof -p" or
"tasklist /FI "PID eq N"" costs a process per probe and inherits its flaws:
kill -0 has kill(2)'s EPERM problem, ps and pgrep list zombies, and each
exists only on some OSes (tasklist only on Windows, the others only on Unix).
The rule reports such a command when it is run, also through "sh -c"; pgrep
and lsof only when their exit status is the verdict, and not pgrep -P, which
lists children.`,
	Bad: `err := exec.Command("kill", "-0", strconv.Itoa(pid)).Run()
return err == nil`,
	Good:  `return safeprobe.Alive(pid)`,
	OS:    "all",
	calls: []callCheck{{matches: isCommand, check: (*site).shell}},
}

func isCommand(_ *runner, fn *types.Func) bool {
	return isPkgFunc(fn, "os/exec", "Command", "CommandContext")
}

// shellProbe is a command line that answers "is PID N alive?".
type shellProbe struct {
	what    string   // as the message names it
	flaw    string   // what is wrong with it everywhere
	only    goos.Set // where the command exists
	exitish bool     // a probe only when its exit status is the verdict
}

var (
	killZero = shellProbe{what: "kill -0", flaw: "has kill(2)'s flaws: EPERM reads as dead, a zombie as alive", only: goos.Unix}
	psPID    = shellProbe{what: "ps -p", flaw: "lists zombies as processes", only: goos.Unix}
	pgrep    = shellProbe{what: "pgrep", flaw: "matches names, not a process, and lists zombies", only: goos.Unix, exitish: true}
	pkill    = shellProbe{what: "pkill -0", flaw: "has kill(2)'s flaws and matches names", only: goos.Unix}
	lsofPID  = shellProbe{what: "lsof -p", flaw: "answers through its exit status, which also fails for other reasons", only: goos.Unix, exitish: true}
	tasklist = shellProbe{what: `tasklist /FI "PID eq N"`, flaw: "exits 0 whether or not the PID exists", only: goos.Windows}
)

// scriptProbes finds the same probes inside "sh -c" scripts.
var scriptProbes = []struct {
	re    *regexp.Regexp
	probe shellProbe
}{
	{regexp.MustCompile(`\bkill\s+(-0|-s\s+0)\b`), killZero},
	{regexp.MustCompile(`\bps\s+(.*\s)?-p\b`), psPID},
	{regexp.MustCompile(`\bpkill\s+-0\b`), pkill},
	{regexp.MustCompile(`\bpgrep\b`), pgrep},
	{regexp.MustCompile(`\blsof\s+(.*\s)?-p\b`), lsofPID},
	{regexp.MustCompile(`(?i)\btasklist\b.*PID eq`), tasklist},
}

// classifyCommand returns the probe a command line is, if any. Arguments
// that are not constants are "".
func classifyCommand(name string, args []string) (shellProbe, bool) {
	has := func(a ...string) bool {
		return slices.ContainsFunc(args, func(s string) bool { return slices.Contains(a, s) })
	}
	base := strings.ToLower(strings.TrimSuffix(path.Base(strings.ReplaceAll(name, `\`, "/")), ".exe"))
	switch base {
	case "kill":
		if has("-0") || (has("-s") && has("0")) {
			return killZero, true
		}
	case "ps":
		if has("-p", "p", "--pid") && !psReadsFields(args) {
			return psPID, true
		}
	case "pgrep":
		if !has("-P", "--parent") { // listing children is not a probe
			return pgrep, true
		}
	case "pkill":
		if has("-0") {
			return pkill, true
		}
	case "lsof":
		if has("-p") {
			return lsofPID, true
		}
	case "tasklist":
		for _, a := range args {
			if strings.Contains(strings.ToUpper(a), "PID EQ") {
				return tasklist, true
			}
		}
	case "sh", "bash", "dash", "zsh", "ksh", "cmd", "powershell", "pwsh":
		for _, a := range args {
			for _, sp := range scriptProbes {
				if sp.re.MatchString(a) {
					return sp.probe, true
				}
			}
		}
	}
	return shellProbe{}, false
}

// psReadsFields reports whether ps is asked for fields other than the PID
// ("ps -p N -o comm="): reading a process's data, not probing it.
func psReadsFields(args []string) bool {
	for i, a := range args {
		if (a == "-o" || a == "-O") && i+1 < len(args) {
			f := strings.TrimSuffix(args[i+1], "=")
			return f != "pid" && f != ""
		}
	}
	return false
}

// shell handles exec.Command[Context] running a probe command.
func (s *site) shell() {
	args := s.call.Args
	if s.fn.Name() == "CommandContext" {
		if len(args) == 0 {
			return
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	name, ok := stringConst(s.info(), args[0])
	if !ok {
		return
	}
	var rest []string
	for _, a := range args[1:] {
		rest = append(rest, s.argText(a))
	}
	probe, ok := classifyCommand(name, rest)
	if !ok {
		return
	}
	run, ok := s.commandRun()
	if !ok {
		return
	}
	if probe.exitish && !exitStatusDecides(s, run) {
		return
	}
	msg := "exec of " + probe.what + " as a liveness test " + probe.flaw + " and costs a process per probe"
	if missing := s.os &^ probe.only; missing != 0 {
		msg += "; the command is not there on " + goos.Describe(missing) + " (where this code builds), so every process reads as dead"
	}
	s.r.add(s.fs, s.finding("%s; use safeprobe.Alive", msg))
}

// argText is the text of a command argument: a constant, or the constant
// parts of a concatenation with N for the rest ("kill -0 "+pid reads
// "kill -0 N"); "" when nothing of it is constant.
func (s *site) argText(e ast.Expr) string {
	if v, ok := stringConst(s.info(), e); ok {
		return v
	}
	parts := flattenConcat(e)
	if len(parts) == 1 {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if v, ok := stringConst(s.info(), p); ok {
			b.WriteString(v)
		} else {
			b.WriteString("N")
		}
	}
	return b.String()
}

// commandRun finds where the command built at the site is run: a chained
// .Run()/.Output()/… or one on the variable it is assigned to.
func (s *site) commandRun() (inspector.Cursor, bool) {
	isRun := func(c inspector.Cursor) bool {
		sel, ok := c.Node().(*ast.SelectorExpr)
		if !ok {
			return false
		}
		switch sel.Sel.Name {
		case "Run", "Output", "CombinedOutput", "Start":
			_, isCall := c.Parent().Node().(*ast.CallExpr)
			return isCall
		}
		return false
	}
	if parent := s.cur.Parent(); isRun(parent) {
		return parent.Parent(), true
	}
	assign, ok := s.cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 1 {
		return inspector.Cursor{}, false
	}
	id, ok := assign.Lhs[0].(*ast.Ident)
	if !ok {
		return inspector.Cursor{}, false
	}
	for use := range usesIn(s.info(), enclosingFunc(s.cur), s.info().ObjectOf(id)) {
		if isRun(use.Parent()) {
			return use.Parent().Parent(), true
		}
	}
	return inspector.Cursor{}, false
}

// exitStatusDecides reports whether the error of the run at c decides.
func exitStatusDecides(s *site, c inspector.Cursor) bool {
	u := useOf(s.info(), c, errIndexOfRun(c))
	return u.kind >= useReturned
}

func errIndexOfRun(c inspector.Cursor) int {
	sel := ast.Unparen(c.Node().(*ast.CallExpr).Fun).(*ast.SelectorExpr)
	if sel.Sel.Name == "Run" || sel.Sel.Name == "Start" {
		return 0
	}
	return 1
}
