//go:build unix && go1.26

package ownchild

import (
	"os/exec"
	"syscall"
)

// The file's go1.26 constraint makes Process.WithHandle available here.
func runningHandle(cmd *exec.Cmd) bool {
	return cmd.Process.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) on a child this program started .*; wait for it instead: a goroutine that calls Wait and records the exit, or check the handle its Process holds \(Process.WithHandle: a pidfd on linux, a process handle on windows\)$`
}
