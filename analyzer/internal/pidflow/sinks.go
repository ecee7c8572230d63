package pidflow

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// A sinkSite is a call that sends a real signal to a PID.
type sinkSite struct {
	call    ssa.CallInstruction
	fn      *types.Func // the declared function it is in
	what    string      // the call as messages name it
	sig     ssa.Value   // the signal; nil for Process.Kill and command lines
	sigText string      // the signal as messages name it, when sig is nil
	command string      // kill, pkill or taskkill, for a command line
	fileArg bool        // the PID is the path of a file the command reads it from (pkill -F)
	process bool        // through a process object (*os.Process, gopsutil's, a handle)
	via     bool        // a call of a function that signals its parameter
	os      OSes        // where the call is there to send it
	negated bool        // kill(-pgid, …): a process group
	pid     ssa.Value   // the PID (or the process) signalled
	pidArg  int         // its index among the call's arguments (the receiver first), -1 if none
	sigArg  int         // the signal's index, -1 if none
	reached []*Source   // the stored PIDs that reach it
}

func (s *sinkSite) reach(src *Source) {
	for _, r := range s.reached {
		if r == src {
			return
		}
	}
	s.reached = append(s.reached, src)
}

// OSes says where a signal's call is there to send it.
type OSes uint8

const (
	AnyOS       OSes = iota // Process.Signal and Kill, gopsutil: every OS
	UnixOnly                // kill(2), kill(1), pkill(1)
	WindowsOnly             // taskkill, TerminateProcess
)

// observeSignal records the real signal a call sends, if it sends one:
// kill(2), Process.Signal and Kill, gopsutil's Kill, Terminate and
// SendSignal, TerminateProcess, and the kill, pkill -F and taskkill
// command lines.
func observeSignal(c *call, r calls.Role, path, recv, name string) {
	fn, args := c.fn, c.args
	pidArg, sigArg := 0, -1
	var what, sigText string
	process, oses := false, AnyOS
	switch {
	case r&calls.Kill != 0 && len(args) == 2 && !isZero(args[1]):
		what, sigArg, oses = fn.Pkg().Name()+".Kill", 1, UnixOnly
	case r&calls.SyscallKill != 0 && len(args) >= 3 && isConstNamed(fn, args[0], "SYS_KILL") && !isZero(args[2]):
		what, pidArg, sigArg, oses = fn.Pkg().Name()+"."+name+"(SYS_KILL, …)", 1, 2, UnixOnly
	case r&calls.ProcessSignal != 0 && len(args) == 2 && !isZero(args[1]):
		what, sigArg, process = "Process.Signal", 1, true
	case r&calls.ProcessKill != 0 && len(args) == 1:
		what, sigText, process = "Process.Kill", "a kill", true
	case isGopsutil(path) && recv == "Process" && gopsutilSignal(name) && len(args) > 0:
		what, process = "process.Process."+name, true
		switch {
		case strings.HasPrefix(name, "SendSignal"):
			if sigArg = len(args) - 1; isZero(args[sigArg]) {
				return
			}
		case strings.HasPrefix(name, "Terminate"):
			sigText = "SIGTERM"
		default:
			sigText = "SIGKILL"
		}
	case isWindows(path) && name == "TerminateProcess" && len(args) == 2:
		what, sigText, process, oses = fn.Pkg().Name()+".TerminateProcess", "a termination", true, WindowsOnly
	case r&calls.Command != 0:
		observeCommand(c)
		return
	default:
		return
	}
	s := c.f.site(c)
	s.what, s.sigText, s.process, s.pidArg, s.sigArg, s.os = what, sigText, process, pidArg, sigArg, oses
	s.pid, s.negated = args[pidArg], isNegation(args[pidArg])
	if sigArg >= 0 {
		s.sig = args[sigArg]
	}
	signalled(c, s)
}

// observeCommand records the signal a kill, pkill -F or taskkill command
// line sends.
func observeCommand(c *call) {
	u, ins, fn, args := c.u, c.ins, c.fn, c.args
	prog, name, line, ok := commandLineNamed(fn, args)
	if !ok {
		return
	}
	cs := signalCommand(name, line)
	if cs == nil {
		return
	}
	s := c.f.site(c)
	s.what, s.command, s.sigText, s.fileArg, s.pid = `exec.Command("`+name+`", …)`, prog, cs.sigText, cs.fileArg, cs.pid
	s.os = UnixOnly
	if cs.windows {
		s.os = WindowsOnly
	}
	if cs.fileArg {
		u.sum.flags |= fSignals
		src := u.f.source(ins, PkillFile, nil, -1)
		src.Subject = u.f.valueText(ins, cs.pid)
		src.checked = true // pkill refuses what is not a PID
		s.reach(src)
		return
	}
	signalled(c, s)
}

// signalled records what reaches a sink: the stored PIDs its PID holds,
// and this function's parameters, for its summary.
func signalled(c *call, s *sinkSite) {
	u := c.u
	u.sum.flags |= fSignals
	sigParam := -1
	if s.sig != nil {
		if prm, ok := unconvert(s.sig).(*ssa.Parameter); ok {
			sigParam = u.paramIndex(prm)
		}
	}
	for _, l := range u.pidLabels(s.pid, "", s.process) {
		c.reachSite(s, l, sigParam)
	}
}

// gopsutilSignal reports whether a gopsutil Process method sends a signal.
func gopsutilSignal(name string) bool {
	switch strings.TrimSuffix(name, "WithContext") {
	case "Kill", "Terminate", "SendSignal":
		return true
	}
	return false
}

// isNegation reports whether v is -x: kill(-pgid, …) signals a group.
func isNegation(v ssa.Value) bool {
	u, ok := unconvert(v).(*ssa.UnOp)
	return ok && u.Op == token.SUB
}

// isConstNamed reports whether v is the constant name of fn's package
// (syscall.SYS_KILL for the OS it builds for).
func isConstNamed(fn *types.Func, v ssa.Value, name string) bool {
	c, ok := fn.Pkg().Scope().Lookup(name).(*types.Const)
	if !ok {
		return false
	}
	n, ok := intConst(v)
	want, exact := constantInt(c)
	return ok && exact && n == want
}

// qualifiedName names a function as messages do: "process.Term",
// "pidfile.File.Kill".
func qualifiedName(fn *types.Func) string {
	name := fn.Name()
	if recv := calls.RecvTypeName(fn); recv != "" {
		name = recv + "." + name
	}
	if fn.Pkg() != nil {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}
