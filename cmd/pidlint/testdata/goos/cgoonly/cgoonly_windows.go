package cgoonly

import (
	"os"
	"syscall"
)

// ParentRunning reports whether the parent process is alive.
func ParentRunning() bool {
	p, err := os.FindProcess(parent())
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}
