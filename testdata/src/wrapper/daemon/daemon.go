package daemon // want package:"has wrappers"

// daemon calls procutil's wrappers with signal 0 (PL006), and has a local
// wrapper.

import (
	"errors"
	"syscall"

	"wrapper/procutil"
)

func running(pid int) bool {
	return procutil.Kill(pid, 0) == nil // want `PL006: Kill \(a wrapper of kill\(pid, 0\)\) as a liveness test reads EPERM`
}

func runningSignal(pid int) bool {
	err := procutil.Signal(pid, syscall.Signal(0)) // want `PL006: Signal \(a wrapper of Process.Signal\(0\)\) always fails on windows`
	return err == nil
}

func exists(pid int) bool {
	return procutil.Exists(pid) == nil // want `PL006: Exists \(a wrapper of kill\(pid, 0\)\) as a liveness test`
}

func canSignal(pid int) bool {
	return procutil.CanSignal(pid, 0) // want `PL006: CanSignal \(a wrapper of kill\(pid, 0\)\) reads EPERM`
}

type supervisor struct{ pid int }

func (s *supervisor) signal(sig syscall.Signal) error { // want signal:"kill wrapper\\(sig=0, pid=-1, error\\)"
	return syscall.Kill(s.pid, sig)
}

func (s *supervisor) alive() bool {
	return s.signal(0) == nil // want `PL006: signal \(a wrapper of kill\(pid, 0\)\) as a liveness test`
}

// Correct: EPERM handled at the call site.
func (s *supervisor) aliveEPERM() bool {
	err := s.signal(0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Real signals through wrappers are not probes.
func (s *supervisor) stop() error { return procutil.Kill(s.pid, syscall.SIGTERM) }
