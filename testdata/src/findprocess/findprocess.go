// Package findprocess holds os.FindProcess shapes for PL003.
package findprocess

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

func exists(pid int) bool {
	_, err := os.FindProcess(pid) // want `PL003: os.FindProcess never fails on any OS but windows \(where this code builds\): every PID reads as alive; on windows it fails with ACCESS_DENIED for a live elevated or other user's process \(read as dead\) and succeeds for an exited process whose handle some process still holds \(read as alive\); use safeprobe.Check or safeprobe.Alive`
	return err == nil
}

// The error is used twice: it stays, and only the call changes.
func existsLogged(pid int) bool {
	_, err := os.FindProcess(pid) // want `PL003: os.FindProcess never fails`
	if err != nil {
		fmt.Println(err)
	}
	return err == nil
}

func ensureRunning(pid int) error {
	if _, err := os.FindProcess(pid); err != nil { // want `PL003: os.FindProcess never fails`
		return fmt.Errorf("daemon %d is not running: %w", pid, err)
	}
	return nil
}

func found(pid int) bool {
	p, _ := os.FindProcess(pid) // want `PL003: os.FindProcess never fails`
	return p != nil
}

func lookup(pid int) error {
	var err error
	_, err = os.FindProcess(pid) // want `PL003`
	return err
}

// Not liveness tests: the process is then signalled, killed or waited for.

func terminate(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(syscall.SIGTERM)
}

func reap(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	_, err = p.Wait()
	return err
}

func probeAfter(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0)) // want `PL002: Process.Signal\(0\) always fails on windows`
	return err == nil || errors.Is(err, syscall.EPERM)
}

func handle(pid int) (*os.Process, error) { return os.FindProcess(pid) }
