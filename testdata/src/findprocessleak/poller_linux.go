//go:build go1.23

package findprocessleak

import (
	"os"
	"syscall"
)

func watchLinux(pids []int) {
	for _, pid := range pids {
		p, _ := os.FindProcess(pid) // want `PL003: os.FindProcess without Release: on linux \(where this code builds\) each call holds a pidfd until`
		p.Signal(syscall.SIGUSR1)
	}
}
