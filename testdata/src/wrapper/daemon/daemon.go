package daemon // want package:"has wrappers"

// daemon calls procutil's wrappers with signal 0 (PL006), and has a local
// wrapper (supervisor_unix.go, kept off windows so that the package builds
// there and windows is named where it fails).

import (
	"syscall"

	"wrapper/procutil"
)

func running(pid int) bool {
	return procutil.Kill(pid, 0) == nil // want `PL006: Kill \(a wrapper of kill\(pid, 0\)\) as a liveness test reads EPERM`
}

func runningSignal(pid int) bool {
	err := procutil.Signal(pid, syscall.Signal(0)) // want `PL006: Signal \(a wrapper of Process.Signal\(0\)\) always fails on windows`
	return err == nil
}

func exists(pid int) bool {
	return procutil.Exists(pid) == nil // want `PL006: Exists \(a wrapper of kill\(pid, 0\)\) as a liveness test`
}

func canSignal(pid int) bool {
	return procutil.CanSignal(pid, 0) // want `PL006: CanSignal \(a wrapper of kill\(pid, 0\)\) reads EPERM`
}
