//go:build unix

package signalzero

import (
	"errors"
	"os/exec"
	"syscall"
)

// The file does not import os: reported without a fix.
func childRunning(cmd *exec.Cmd) bool {
	err := cmd.Process.Signal(syscall.SIGHUP)
	return !errors.Is(err, syscall.ESRCH) // want `PL002: Process.Signal never returns syscall.ESRCH`
}
