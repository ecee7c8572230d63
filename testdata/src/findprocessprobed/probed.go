//go:build unix

// Package findprocessprobed holds os.FindProcess calls followed by a real
// probe of the same PID: FindProcess is a first filter there, not the
// verdict, and PL003 does not report it.
package findprocessprobed

import (
	"errors"
	"os"
	"syscall"
)

func isProcessExist(pid int) bool {
	_, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return exists(pid)
}

func exists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

func probedInPlace(pid int) bool {
	if _, err := os.FindProcess(pid); err != nil {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// The probe that follows asks about another PID: FindProcess decides pid.
func otherPID(pid, parent int) bool {
	_, err := os.FindProcess(pid) // want `PL003: os.FindProcess never fails`
	if err != nil {
		return false
	}
	return exists(parent)
}

// The probe is on another path: FindProcess decides this one.
func otherPath(pid int, deep bool) bool {
	if !deep {
		_, err := os.FindProcess(pid) // want `PL003: os.FindProcess never fails`
		return err == nil
	}
	return exists(pid)
}
