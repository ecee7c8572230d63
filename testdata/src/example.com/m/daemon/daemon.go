// Package daemon probes through safeprobe vendored at
// example.com/m/internal/pidlintsafeprobe, whose package is safeprobe.
package daemon

import (
	"os"
	"syscall"
)

func running(pid int) bool {
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func exists(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002`
}
