// Package signalnil probes with Process.Signal(nil), which fails on every
// OS.
package signalnil

import (
	"os"
	"syscall"
)

func alive(p *os.Process) bool {
	return p.Signal(nil) == nil // want `PL002: Process.Signal\(nil\) fails on every OS \(os: unsupported signal type; on windows EWINDOWS\): every process reads as dead; use safeprobe.CheckProcess`
}

func check(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(os.Signal(nil)) // want `PL002: Process.Signal\(nil\) fails on every OS`
}

func byText(p *os.Process) bool {
	err := p.Signal(nil) // want `PL002: Process.Signal\(nil\) fails on every OS`
	return err == nil || err.Error() != "os: process already finished"
}

// Not probes: the error is not looked at, or the signal is real.
func ignored(p *os.Process) { p.Signal(nil) }

func stop(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
