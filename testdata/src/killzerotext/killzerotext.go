//go:build unix

// Package killzerotext decides kill(pid, 0) by its error's text. Text that
// names ESRCH's or EPERM's message tells a gone process from another
// user's: the message says only that the text is fragile.
package killzerotext

import (
	"strings"
	"syscall"
)

// Only "no such process" reads as dead: EPERM reads as alive.
func checkPidExist(pid int) bool {
	err := syscall.Kill(pid, 0) // want `^PL001: syscall.Kill\(pid, 0\) decided by comparing err.Error\(\) text: the text is not an API \(a wrapped error does not match, another OS words it differently\); use safeprobe.Check$`
	if err != nil && err.Error() != "no such process" {
		return true
	}
	return false
}

func permitted(pid int) bool {
	err := syscall.Kill(pid, 0) // want `^PL001: syscall.Kill\(pid, 0\) decided by comparing err.Error\(\) text: the text is not an API \(a wrapped error does not match, another OS words it differently\); use safeprobe.Check$`
	return err == nil || strings.Contains(err.Error(), "Operation not permitted")
}

// Text that names neither: EPERM reads as dead.
func notFound(pid int) bool {
	err := syscall.Kill(pid, 0) // want `PL001: syscall.Kill\(pid, 0\) decided by comparing err.Error\(\) text: the text is not an API, and EPERM still reads as dead on every Unix; use safeprobe.Check`
	return err == nil || !strings.Contains(err.Error(), "not found")
}
