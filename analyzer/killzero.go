package analyzer

import "github.com/pidlint/pidlint/analyzer/internal/calls"

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
is reported wherever it is; a probe decided by such a text, or by EPERM's
("operation not permitted"), tells the two apart, and its message says only
that the text is fragile.`,
	Bad: `func running(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}`,
	Good: `func running(pid int) bool {
	return safeprobe.Alive(pid)
}`,
	OS:  "Unix",
	Fix: true,
	calls: []callCheck{
		{roles: calls.Kill, check: checkKill},
		{roles: calls.SyscallKill, check: checkSyscallKill},
		{roles: calls.ErrorText, check: checkErrorText}, // reports as PL001 or PL002 by the text
	},
}

// checkKill checks syscall.Kill and unix.Kill with the signal 0.
func checkKill(s *site) {
	if !s.Probe() {
		return
	}
	s.errProbe(errProbe{
		what:   s.Fn.Pkg().Name() + ".Kill(pid, 0)",
		check:  s.safeprobeCall("Check", s.PID),
		alive:  s.safeprobeCall("Alive", s.PID),
		advice: "safeprobe.Check",
	}, 0)
}

// checkSyscallKill checks syscall.Syscall(SYS_KILL, pid, 0, …). Its errno
// result is a syscall.Errno, so no safeprobe call replaces it in place.
func checkSyscallKill(s *site) {
	if s.PID == nil || !s.SigZero {
		return
	}
	s.errProbe(errProbe{
		what:   s.Fn.Pkg().Name() + "." + s.Fn.Name() + "(SYS_KILL, pid, 0)",
		advice: "safeprobe.Check",
	}, 2)
}
