package analyzer

import "go/types"

var killZeroRule = Rule{
	ID:      "PL001",
	Name:    "kill-zero",
	Title:   "kill(pid, 0) used as a liveness test",
	Summary: "`syscall.Kill`/`unix.Kill`/`Syscall(SYS_KILL…)` with signal 0 whose error decides liveness without telling EPERM from ESRCH",
	Text: `kill(2) with signal 0 sends nothing and reports whether the caller may
signal the PID. Its error is not a liveness verdict: EPERM means the process
exists but belongs to another user, yet "err != nil" reads it as dead. A
zombie (exited, not reaped) and a recycled PID both read as alive. On Linux
a thread ID reads as alive too. The rule reports syscall.Kill, unix.Kill and
syscall.Syscall(SYS_KILL, …) with a constant signal 0 whose error decides
liveness without telling EPERM from ESRCH, compares err.Error() text, or
inverts the test. Code that handles EPERM (errors.Is(err, syscall.EPERM),
os.IsPermission, or a func(error) bool of its own such as isPerm(err)) or
counts only ESRCH as dead is not reported. A process group (kill(-pgid, 0))
is reported without a fix: safeprobe answers for one process. Comparing
err.Error() with "no such process" instead of errors.Is(err, syscall.ESRCH)
is reported wherever it is.`,
	Bad: `func running(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}`,
	Good: `func running(pid int) bool {
	return safeprobe.Alive(pid)
}`,
	OS:  "Unix",
	Fix: true,
	calls: []callCheck{
		{matches: isKill, check: (*site).kill},
		{matches: isSyscall, check: (*site).syscallKill},
		{matches: isErrorMethod, check: (*site).errorText}, // reports as PL001 or PL002 by the text
	},
}

func isKill(_ *runner, fn *types.Func) bool {
	return isPkgFunc(fn, syscallPath, "Kill") || isPkgFunc(fn, unixPath, "Kill")
}

func isSyscall(_ *runner, fn *types.Func) bool {
	return isPkgFunc(fn, syscallPath, "Syscall", "RawSyscall", "Syscall6", "RawSyscall6") ||
		isPkgFunc(fn, unixPath, "Syscall", "RawSyscall", "Syscall6", "RawSyscall6")
}

// kill handles syscall.Kill and unix.Kill.
func (s *site) kill() {
	if len(s.call.Args) != 2 || !isZero(s.info(), s.call.Args[1]) {
		return
	}
	pid := s.call.Args[0]
	s.errProbe(errProbe{
		what:   s.fn.Pkg().Name() + ".Kill(pid, 0)",
		check:  s.safeprobeCall("Check", pid),
		alive:  s.safeprobeCall("Alive", pid),
		advice: "safeprobe.Check",
	}, 0)
}

// syscallKill handles syscall.Syscall(SYS_KILL, pid, 0, …). Its errno
// result is a syscall.Errno, so no safeprobe call replaces it in place.
func (s *site) syscallKill() {
	args := s.call.Args
	if len(args) < 3 || !isZero(s.info(), args[2]) ||
		!(isPkgObj(s.info(), args[0], syscallPath, "SYS_KILL") || isPkgObj(s.info(), args[0], unixPath, "SYS_KILL")) {
		return
	}
	s.errProbe(errProbe{
		what:   s.fn.Pkg().Name() + "." + s.fn.Name() + "(SYS_KILL, pid, 0)",
		advice: "safeprobe.Check",
	}, 2)
}
