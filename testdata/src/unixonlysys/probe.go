// Package unixonlysys imports golang.org/x/sys/unix, which has no file for
// windows: the package cannot build there, so the probe's message names
// only Unix.
package unixonlysys

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

func alive(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM .* on every Unix \(where this code builds\)`
}

func perm() error { return unix.EPERM }
