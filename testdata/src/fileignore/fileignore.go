// Package fileignore exercises //pidlint:file-ignore, which suppresses the
// rules it names in its whole file, wherever it stands.
package fileignore

import (
	"os"
	"syscall"
)

func child(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}

func childToo(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	return true
}

// Another rule is still reported.
func signalled(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002`
}

//pidlint:file-ignore PL001 every PID in this file is a child this package started as the same user
