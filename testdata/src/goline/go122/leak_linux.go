package child

import (
	"os"
	"syscall"
)

// Linux only, go line 1.22: nothing held, nothing reported.
func watchLinux(pids []int) {
	for _, pid := range pids {
		p, _ := os.FindProcess(pid)
		p.Signal(syscall.SIGTERM)
	}
}
