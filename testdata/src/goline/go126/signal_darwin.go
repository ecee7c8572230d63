package child

import (
	"os"
	"syscall"
)

// No pidfd on darwin: reuse at any time.
func aliveDarwin(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM \(another user's process\) as dead and a zombie or reused PID as alive on darwin \(where this code builds\); use safeprobe.CheckProcess`
}
