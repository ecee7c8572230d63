package analyzer

import (
	"fmt"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

var wrapperRule = checker{
	rule:  "PL006",
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
