package pidflow

import (
	"go/types"
	"path"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
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
	prog := strings.ToLower(strings.TrimSuffix(path.Base(strings.ReplaceAll(name, `\`, "/")), ".exe"))
	return prog, name, out, true
}

// A commandSignal is the signal a command line sends to a PID.
type commandSignal struct {
	pid     ssa.Value // the PID, or for pkill -F the PID file's path
	sigText string    // the signal, as messages name it
	fileArg bool      // pid is the path of a file the program reads the PID from
}

// signalCommand returns the signal a kill, pkill -F or taskkill /PID
// command line sends, or nil. Its PID is the first argument that is not
// a constant.
func signalCommand(prog string, args []cmdArg) *commandSignal {
	var s commandSignal
	var opts []string
	for i, a := range args {
		if a.val == nil {
			opts = append(opts, a.text)
			continue
		}
		if s.pid == nil {
			s.pid = a.val
			s.fileArg = prog == "pkill" && i > 0 && len(opts) > 0 && strings.EqualFold(opts[len(opts)-1], "-F")
			if prog == "taskkill" && (len(opts) == 0 || !strings.EqualFold(opts[len(opts)-1], "/PID")) {
				return nil // an image name (/IM) or a filter
			}
		}
	}
	if s.pid == nil {
		return nil
	}
	switch prog {
	case "kill":
		s.sigText = "SIGTERM"
		for i, o := range opts {
			switch {
			case o == "-0" || o == "-s0":
				return nil // a probe: PL005's
			case (o == "-s" || o == "--signal") && i+1 < len(opts):
				if opts[i+1] == "0" {
					return nil
				}
				s.sigText = "SIG" + strings.TrimPrefix(strings.ToUpper(opts[i+1]), "SIG")
			case strings.HasPrefix(o, "-") && len(o) > 1 && o != "--" && (i == 0 || opts[i-1] != "-s" && opts[i-1] != "--signal"):
				s.sigText = o
			}
		}
	case "pkill":
		if !s.fileArg {
			return nil // a name pattern, not a PID
		}
		s.sigText = "SIGTERM"
		for _, o := range opts {
			if o == "-0" || o == "-L" || o == "--logpidfile" {
				return nil // a probe, or the file's lock is checked
			}
			if strings.HasPrefix(o, "-") && !strings.EqualFold(o, "-F") {
				s.sigText = o
			}
		}
	case "taskkill":
		s.sigText = "a close request"
		for _, o := range opts {
			if strings.EqualFold(o, "/F") {
				s.sigText = "a forced termination (/F)"
			}
		}
	default:
		return nil
	}
	return &s
}

// psFields returns the check that the fields a ps command line asks for
// (-o comm=, -o lstart=) allow: a name or the start time; 0 if none.
func psFields(args []cmdArg) check {
	for i, a := range args {
		if (a.text == "-o" || a.text == "-O") && i+1 < len(args) {
			var c check
			for f := range strings.SplitSeq(args[i+1].text, ",") {
				switch strings.TrimSuffix(strings.TrimSpace(f), "=") {
				case "lstart", "start", "start_time", "stime", "etime", "etimes", "bsdstart":
					c |= checkIdentity
				case "comm", "ucomm", "args", "cmd", "command", "exe", "ucmd", "fname":
					c |= checkName
				}
			}
			return c
		}
	}
	return 0
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
