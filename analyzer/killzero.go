package analyzer

import "github.com/pidlint/pidlint/analyzer/internal/calls"

var killZeroRule = checker{
	rule: "PL001",
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
