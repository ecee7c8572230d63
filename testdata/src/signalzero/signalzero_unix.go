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
