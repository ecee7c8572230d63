// Package signalzero holds Process.Signal(0) shapes for PL002. This file
// builds for every OS, windows included.
package signalzero

import (
	"errors"
	"os"
	"syscall"
)

func isAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) always fails on windows \(where this code builds\): every process reads as dead; use safeprobe.CheckProcess`
}

// Handling EPERM does not help on Windows.
func isAliveEPERM(p *os.Process) bool {
	err := p.Signal(syscall.Signal(0)) // want `PL002: Process.Signal\(0\) always fails on windows`
	return err == nil || errors.Is(err, syscall.EPERM)
}

// An identity comparison with os.ErrProcessDone would not match a wrapped
// error: reported, without a fix.
func done(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == os.ErrProcessDone // want `PL002: Process.Signal\(0\) always fails on windows`
}

// A real signal is not a probe.
func stop(p *os.Process) error { return p.Signal(os.Interrupt) }

// Signal on another type is not this rule.
type worker struct{}

func (worker) Signal(sig os.Signal) error { return nil }

func workerAlive(w worker) bool { return w.Signal(syscall.Signal(0)) == nil }

// Builds for windows, where Signal(0) always fails, and for Unix, where
// Signal never returns ESRCH: two findings, two fixes.
func aliveESRCH(p *os.Process) bool {
	return !errors.Is(p.Signal(syscall.Signal(0)), syscall.ESRCH) // want `PL002: Process.Signal\(0\) always fails on windows` `PL002: Process.Signal never returns syscall.ESRCH: .*a dead process reads as alive on every Unix`
}
