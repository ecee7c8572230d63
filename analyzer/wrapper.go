package analyzer

import (
	"fmt"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

var wrapperRule = Rule{
	ID:      "PL006",
	Name:    "wrapper",
	Title:   "a kill or Signal wrapper called with signal 0",
	Summary: "a function that passes its parameter to kill/Signal, called with signal 0 (followed across packages through facts)",
	Text: `A function whose parameter becomes the signal of a kill or Signal call is a
probe when called with the constant 0, with the flaws of PL001 and PL002.
The rule follows such wrappers through analysis facts, across packages, and
reports at the call site whose error decides liveness. A function that
returns kill(pid, 0)'s raw error is followed the same way.`,
	Bad: `func signal(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

func running(pid int) bool { return signal(pid, 0) == nil }`,
	Good:  `func running(pid int) bool { return safeprobe.Alive(pid) }`,
	OS:    "Unix; windows for a Signal wrapper",
	Fix:   true,
	calls: []callCheck{{roles: calls.Wrapped, check: checkWrapper}},
}

// The wrappers and their facts are found by wrappers.FindWrappers.

// checkWrapper checks a call of a wrapper (a facts.Wrapper) with signal 0.
func checkWrapper(s *site) {
	if !s.Probe() {
		return
	}
	w, pid := s.Wrapper, s.PID
	wrapped := "kill(pid, 0)"
	if w.Signal {
		wrapped = "Process.Signal(0)"
	}
	what := fmt.Sprintf("%s (a wrapper of %s)", s.Fn.Name(), wrapped)
	check, alive := "", ""
	if pid != nil {
		check, alive = s.safeprobeCall("Check", pid), s.safeprobeCall("Alive", pid)
	}
	if w.Bool {
		unix := goos.Describe(s.os)
		f := s.finding("%s reads EPERM (another user's process) as dead and a zombie or reused PID as alive on %s (where this code builds); use safeprobe.Alive", what, unix)
		f.fix = s.replaceCall(alive)
		s.r.add(s.fs, f)
		return
	}
	s.errProbe(errProbe{
		what:    what,
		windows: w.Signal && w.SigParam >= 0,
		check:   check,
		alive:   alive,
		advice:  "safeprobe.Check",
	}, 0)
}
