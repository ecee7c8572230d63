//go:build unix

package child

import (
	"os"
	"syscall"
)

// go 1.26: on linux the Process holds a pidfd, so only a PID reused
// before it was found (or an old kernel) misleads the probe there.
func alive(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM \(another user's process\) as dead and a zombie as alive on every Unix \(where this code builds\), and a reused PID as alive on every other Unix and on linux when the PID was reused before the Process was found or the kernel predates 5.3 \(from Go 1.23 a Process holds a pidfd there\); use safeprobe.CheckProcess`
}
