//go:build unix

package pidonly

import (
	"os"
	"syscall"
)

// After the fix neither os nor syscall is used: both imports go.
func running(pid int) bool {
	proc, _ := os.FindProcess(pid)
	return proc.Signal(syscall.Signal(0)) == nil // want `PL002: .*; use safeprobe.Alive`
}
