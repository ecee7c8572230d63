package child

import (
	"os"
	"syscall"
)

func aliveLinux(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM \(another user's process\) as dead and a zombie as alive on linux \(where this code builds\), and a reused PID as alive on linux when the PID was reused before the Process was found or the kernel predates 5.3`
}

// kill(2) has no pidfd: reuse at any time.
func aliveKill(pid int) bool {
	return syscall.Kill(pid, 0) == nil // want `PL001: syscall.Kill\(pid, 0\) as a liveness test reads EPERM \(another user's process\) as dead and a zombie or reused PID as alive on linux`
}
