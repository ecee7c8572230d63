package killzeroimports

import (
	"fmt"
	"syscall"
)

// Both probes are the only uses of syscall: with both fixes applied the
// import must go, or the file would not compile.

func running(pid int) bool {
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func check(pid int) error {
	if err := syscall.Kill(pid, 0); err != nil { // want `PL001`
		return fmt.Errorf("pid %d is not running", pid)
	}
	return nil
}
