// Package proc answers whether a PID is alive, EPERM included.
package proc

import (
	"errors"
	"syscall"
)

// Alive reports whether a process has the PID.
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
