// Package unixtestonly builds for windows; only its test calls
// syscall.Kill, so only the test variant does not: the probe still always
// fails on windows.
package unixtestonly

import (
	"os"
	"syscall"
)

func alive(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) always fails on windows`
}
