package proc

import (
	"os"
	"syscall"
)

// Running reports whether Pid is alive.
func Running() bool {
	p, err := os.FindProcess(Pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}
