//go:build unix

package child

import (
	"os"
	"syscall"
)

// go 1.22: a Process may hold no pidfd, so a PID reused at any time reads
// as alive.
func alive(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM \(another user's process\) as dead and a zombie or reused PID as alive on every Unix \(where this code builds\); use safeprobe.CheckProcess`
}
