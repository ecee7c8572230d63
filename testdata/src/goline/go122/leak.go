package child

import (
	"os"
	"syscall"
)

// Before Go 1.23 FindProcess held nothing on Linux; on windows it has
// always opened a process handle.
func watch(pids []int) {
	for _, pid := range pids {
		p, _ := os.FindProcess(pid) // want `PL003: os.FindProcess without Release: on windows \(where this code builds\) each call holds a process handle until`
		p.Signal(syscall.SIGTERM)
	}
}
