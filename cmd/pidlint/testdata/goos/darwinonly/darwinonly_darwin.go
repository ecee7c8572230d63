// Package darwinonly builds only for macOS.
package darwinonly

import "syscall"

// Alive reports whether pid is alive.
func Alive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
