//go:build unix

package signalzero

import (
	"errors"
	"os"
	"syscall"
)

func running(p *os.Process) bool {
	if err := p.Signal(syscall.Signal(0)); err != nil { // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM \(another user's process\) as dead and a zombie or reused PID as alive on every Unix \(where this code builds\); use safeprobe.CheckProcess`
		return false
	}
	return true
}

// Correct on Unix: only ErrProcessDone counts as dead.
func runningDone(p *os.Process) bool {
	err := p.Signal(syscall.Signal(0))
	return !errors.Is(err, os.ErrProcessDone)
}

// Process.Signal returns os.ErrProcessDone, never ESRCH: each of these
// reads a dead process as alive.
func runningESRCH(p *os.Process) bool {
	err := p.Signal(syscall.Signal(0))
	return !errors.Is(err, syscall.ESRCH) // want `PL002: Process.Signal never returns syscall.ESRCH: it returns os.ErrProcessDone for a process that is gone, so a dead process reads as alive on every Unix \(where this code builds\); compare with os.ErrProcessDone`
}

func runningNotESRCH(p *os.Process) bool {
	err := p.Signal(syscall.Signal(0))
	return err != syscall.ESRCH // want `PL002: Process.Signal never returns syscall.ESRCH: .*a dead process reads as alive`
}

func deadESRCH(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == syscall.ESRCH // want `PL002: Process.Signal never returns syscall.ESRCH`
}

func state(p *os.Process) string {
	switch err := p.Signal(syscall.Signal(0)); err {
	case nil:
		return "running"
	case syscall.ESRCH: // want `PL002: Process.Signal never returns syscall.ESRCH`
		return "exited"
	}
	return "unknown"
}

// With a real signal the ESRCH branch never runs: stopping a process that
// is gone fails.
func stopGone(p *os.Process) error {
	if err := p.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) { // want `PL002: Process.Signal never returns syscall.ESRCH: it returns os.ErrProcessDone for a process that is gone, so this test never matches on every Unix`
		return err
	}
	return nil
}

// kill(2) does return ESRCH: not this rule's concern.
func killESRCH(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// The ESRCH test is dead code but the verdict is right: the caller gets
// the error itself, os.ErrProcessDone for a process that is gone.
func signalZeroOrDone(p *os.Process) error {
	err := p.Signal(syscall.Signal(0))
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	if errors.Is(err, syscall.EPERM) {
		return nil
	}
	return err
}

// Both errors are compared with: the ESRCH test is only belt and braces.
func goneEither(p *os.Process) bool {
	err := p.Signal(syscall.Signal(0))
	return errors.Is(err, os.ErrProcessDone) || errors.Is(err, syscall.ESRCH)
}
