// Package errtext compares error text where errors.Is belongs.
package errtext

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
)

func stop(p *os.Process) error {
	err := p.Signal(syscall.SIGTERM)
	if err != nil && err.Error() == "os: process already finished" { // want `PL002: err.Error\(\) compared with "os: process already finished": the text is not an API \(a wrapped error does not match, another OS words it differently\); use errors.Is\(err, os.ErrProcessDone\)`
		return nil
	}
	return err
}

func terminate(pid int) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		if strings.Contains(err.Error(), "no such process") { // want `PL001: err.Error\(\) compared with "no such process": .*use errors.Is\(err, syscall.ESRCH\)`
			return nil
		}
		return fmt.Errorf("kill %d: %w", pid, err)
	}
	return nil
}

// Process.Signal turns ESRCH into os.ErrProcessDone: never matches.
func stopGone(p *os.Process) error {
	err := p.Signal(syscall.SIGTERM)
	if err != nil && strings.Contains(err.Error(), "no such process") { // want `PL002: err.Error\(\) compared with "no such process": Process.Signal and Kill never return ESRCH, they return os.ErrProcessDone for a process that is gone, so this never matches; use errors.Is\(err, os.ErrProcessDone\)`
		return nil
	}
	return err
}

func classify(err error) string {
	switch err.Error() { // want `PL002: err.Error\(\) compared with "process already finished"`
	case "process already finished":
		return "gone"
	}
	return "other"
}

// Correct: errors.Is, and texts about other things.
func stopIs(p *os.Process) error {
	if err := p.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}

func notFound(err error) bool { return err.Error() == "file does not exist" }

func message(err error) string { return "failed: " + err.Error() }
