//go:build darwin || freebsd

package proc

import "syscall"

// Exists reports whether pid names a process.
func Exists(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
