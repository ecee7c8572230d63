//go:build unix

// Package child is a module whose go line (1.26) has
// Process.WithHandle: the advice names it after Wait.
package child

import (
	"os/exec"
	"syscall"
)

func running(cmd *exec.Cmd) bool {
	return cmd.Process.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) on a child this program started .*; wait for it instead: a goroutine that calls Wait and records the exit, or check the handle its Process holds \(Process.WithHandle: a pidfd on linux, a process handle on windows\)$`
}
