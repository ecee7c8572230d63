// Package unixonly does not build for windows: its file name ends in
// _unix, which is no build constraint, but stop.go calls syscall.Kill,
// which windows does not have. No message speaks of windows.
package unixonly

import (
	"os"
	"syscall"
)

func alive(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM \(another user's process\) as dead and a zombie or reused PID as alive on every Unix \(where this code builds\)`
}

// Handling EPERM and ErrProcessDone is right wherever the package builds.
func running(p *os.Process) bool {
	err := p.Signal(syscall.Signal(0))
	return err == nil || err == syscall.EPERM
}
