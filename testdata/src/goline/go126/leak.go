package child

import (
	"os"
	"syscall"
)

func watch(pids []int) {
	for _, pid := range pids {
		p, _ := os.FindProcess(pid) // want `PL003: os.FindProcess without Release: on linux and windows \(where this code builds\) each call holds a pidfd \(a process handle on windows\) until`
		p.Signal(syscall.SIGTERM)
	}
}
