package strict // want package:"has wrappers"

// strict shows what -strict adds: raw probes that are correct where they
// stand.

import (
	"errors"
	"os"
	"syscall"
)

func aliveEPERM(pid int) bool {
	err := syscall.Kill(pid, 0) // want `PL001: raw liveness probe syscall.Kill\(pid, 0\): route it through safeprobe \(strict mode\)`
	return err == nil || errors.Is(err, syscall.EPERM)
}

func probe(pid int) error { // want probe:"kill wrapper\\(sig=-1, pid=0, error\\)"
	return syscall.Kill(pid, 0) // want `PL001: raw liveness probe`
}

func naive(pid int) bool {
	return syscall.Kill(pid, 0) == nil // want `PL001: syscall.Kill\(pid, 0\) as a liveness test`
}

func stop(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
