//go:build unix

package daemon

import (
	"errors"
	"syscall"

	"wrapper/procutil"
)

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
