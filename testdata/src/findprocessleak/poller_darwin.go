//go:build go1.23

package findprocessleak

import (
	"os"
	"syscall"
)

// On darwin FindProcess holds nothing: not reported.
func watchDarwin(pids []int) {
	for _, pid := range pids {
		p, _ := os.FindProcess(pid)
		p.Signal(syscall.SIGUSR1)
	}
}
