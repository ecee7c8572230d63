//go:build unix

package pidonly

import (
	"errors"
	"os"
	"syscall"
)

func found(pid int) bool {
	p, _ := os.FindProcess(pid)
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM .* on every Unix \(where this code builds\); use safeprobe.Alive`
}

func foundNot(pid int) bool {
	p, _ := os.FindProcess(pid)
	return p.Signal(syscall.Signal(0)) != nil // want `PL002: .*; use safeprobe.Alive`
}

// The error check of FindProcess goes too: Alive is false where it failed.
func foundChecked(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: .*; use safeprobe.Alive`
}

// The probe's error is still checked: safeprobe.Check keeps it.
func foundErr(pid int) error {
	p, _ := os.FindProcess(pid)
	err := p.Signal(syscall.Signal(0)) // want `PL002: .*; use safeprobe.Check$`
	if err != nil {
		return errors.New("not running")
	}
	return nil
}

// The process is used again: it stays, and the probe asks about it.
func kept(pid int) bool {
	p, _ := os.FindProcess(pid)
	if p.Signal(syscall.Signal(0)) != nil { // want `PL002: .*; use safeprobe.CheckProcess`
		return false
	}
	return p.Release() == nil
}

// The FindProcess error is handled otherwise: deleting it would change
// what the function returns.
func keptErr(pid int) (bool, error) {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false, err
	}
	return p.Signal(syscall.Signal(0)) == nil, nil // want `PL002: .*; use safeprobe.CheckProcess`
}
