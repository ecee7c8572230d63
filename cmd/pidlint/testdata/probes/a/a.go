// Package a holds process functions that other packages call.
package a

import "syscall"

// Kill sends sig to pid.
func Kill(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

// Running reports whether pid is alive.
func Running(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
