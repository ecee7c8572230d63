package pidflow

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/internal/shellcmd"
)

// Commands that signal a PID given on their command line: kill(1) and
// pkill(1) on Unix, taskkill on Windows; and ps, whose -o fields read a
// process's name or start time.

// A cmdArg is one argument of a command line: a constant's text, or a
// value.
type cmdArg struct {
	text string
	val  ssa.Value // nil for a constant
}

// commandLine returns the program an exec.Command or CommandContext call
// runs, as a lower-case base name without .exe, and its arguments, when
// the call lists them.
func commandLine(fn *types.Func, args []ssa.Value) (string, []cmdArg, bool) {
	prog, _, line, ok := commandLineNamed(fn, args)
	return prog, line, ok
}

// commandLineNamed is commandLine with the program's name as written.
func commandLineNamed(fn *types.Func, args []ssa.Value) (string, string, []cmdArg, bool) {
	if fn.Name() == "CommandContext" {
		if len(args) == 0 {
			return "", "", nil, false
		}
		args = args[1:]
	}
	if len(args) != 2 {
		return "", "", nil, false
	}
	name, ok := stringConst(args[0])
	if !ok {
		return "", "", nil, false
	}
	elems, ok := varargs(args[1])
	if !ok {
		return "", "", nil, false
	}
	out := make([]cmdArg, len(elems))
	for i, e := range elems {
		if s, ok := stringConst(e); ok {
			out[i] = cmdArg{text: s}
		} else {
			out[i] = cmdArg{val: e}
		}
	}
	return shellcmd.Name(name), name, out, true
}

// signalCommand returns the real signal a command line sends to the
// value of one of its arguments (shellcmd.SignalOf), or nil.
func signalCommand(name string, args []cmdArg) *commandSignal {
	line := make([]shellcmd.Arg, len(args))
	for i, a := range args {
		line[i] = shellcmd.Arg{Text: a.text, Var: a.val != nil}
	}
	sig, ok := shellcmd.SignalOf(name, line)
	if !ok {
		return nil
	}
	return &commandSignal{pid: args[sig.PID].val, sigText: sig.What, fileArg: sig.FromFile, windows: sig.Windows}
}

// A commandSignal is the signal a command line sends to a PID.
type commandSignal struct {
	pid     ssa.Value // the PID, or for pkill -F the PID file's path
	sigText string    // the signal, as messages name it
	fileArg bool      // pid is the path of a file the program reads the PID from
	windows bool      // taskkill
}

// psFields returns the check that the fields a ps command line asks for
// (-o comm=, -o lstart=) allow: a name or the start time; 0 if none.
func psFields(args []cmdArg) check {
	texts := make([]string, len(args))
	for i, a := range args {
		texts[i] = a.text
	}
	var c check
	name, start := shellcmd.PsFields(texts)
	if name {
		c |= checkName
	}
	if start {
		c |= checkIdentity
	}
	return c
}

// psCommand runs exec.Command("ps", …, pid, "-o", "comm="): the command's
// output is the identity of the processes its arguments' PIDs name.
func psCommand(c *call) {
	fn, args := c.fn, c.args
	prog, line, ok := commandLine(fn, args)
	if !ok || prog != "ps" {
		return
	}
	k := psFields(line)
	if k == 0 {
		return
	}
	for _, a := range line {
		if a.val != nil {
			c.writeResult(0, c.identityOf(a.val, k))
		}
	}
}

// identityWords are parts of the names of other packages' functions that
// read whose a process is: their results are an identity to compare.
var identityWords = []string{"starttime", "createtime", "creationtime", "cmdline", "commandline", "processname",
	"procname", "exepath", "executable", "imagename"}

// foreignAnswerOrIdentity runs a call of another package's function
// without a fact: one whose name reads a process's identity
// (procutil.StartTime(pid)), or promises "alive" for a PID
// (procutil.IsRunning(pid)).
func foreignAnswerOrIdentity(c *call) {
	fn, args := c.fn, c.args
	name := strings.ToLower(fn.Name())
	sig := fn.Signature()
	for _, w := range identityWords {
		if strings.Contains(name, w) {
			k := checkName
			if strings.Contains(name, "time") {
				k = checkIdentity
			}
			for _, a := range args {
				c.writeResult(0, c.identityOf(a, k))
			}
			return
		}
	}
	pol := calls.LivenessPolarity(fn.Name())
	if pol == 0 || sig.Results().Len() == 0 || !types.Identical(sig.Results().At(0).Type().Underlying(), types.Typ[types.Bool]) {
		return
	}
	for _, a := range args {
		if b, ok := a.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			c.writeResult(0, c.answerOf(a, false, pol))
		}
	}
}
