package signalwindows

import (
	"os"
	"syscall"
)

// This file does not build on a Linux host, yet its Signal(0) is reported.
func windowsAlive(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) always fails on windows`
}
