// Package ctl is a daemon's control CLI built on package pidfile.
package ctl

import (
	"os"
	"syscall"

	"signalstale/pidfile"
)

func badStop(path string) error {
	pid, err := pidfile.Read(path)
	if err != nil {
		return err
	}
	return pidfile.Terminate(pid) // want `PL007: pidfile.Terminate \(syscall.Kill\) sends syscall.SIGTERM to a PID returned by pidfile.Read at ctl\.go:12 \(read from the file path at pidfile\.go:15\) and parsed with no upper bound`
}

func badInterrupt(path string) error {
	pid, err := pidfile.Read(path)
	if err != nil {
		return err
	}
	return pidfile.Send(pid, os.Interrupt) // want `PL007: pidfile.Send \(Process.Signal\) sends os.Interrupt to a PID returned by pidfile.Read at ctl\.go:20 \(read from the file path at pidfile\.go:15\) without checking`
}

func badDirectKill(path string) error {
	pid, err := pidfile.Read(path)
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGQUIT) // want `PL007: syscall.Kill sends syscall.SIGQUIT to a PID returned by pidfile.Read at ctl\.go:28 \(read from the file path at pidfile\.go:15\) and parsed with no upper bound`
}

// A probe through the library is not a signal.
func goodProbe(path string) bool {
	pid, err := pidfile.Read(path)
	return err == nil && pidfile.Send(pid, syscall.Signal(0)) == nil // want `PL006: Send \(a wrapper of Process.Signal\(0\)\) as a liveness test reads EPERM .* on every Unix \(where this code builds\)`
}

// A child's PID through the library's signal.
func goodChild(p *os.Process) error { return pidfile.Terminate(p.Pid) }
