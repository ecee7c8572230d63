// Package probe holds the liveness checks the golangci-lint plugin test
// expects pidlint to report, and the ones it expects it not to report.
// tools/golangci/test.sh lists the expected findings by line.
package probe

import (
	"errors"
	"os"
	"syscall"

	"github.com/pidlint/pidlint/safeprobe"
)

// KillZero reads EPERM as dead: PL001.
func KillZero(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil
}

// SignalZero is wrong on Windows whatever it does with the error: PL002.
func SignalZero(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil
}

// Nolint is suppressed by golangci-lint's own directive.
func Nolint(pid int) bool {
	return syscall.Kill(pid, 0) == nil //nolint:pidlint // compared with safeprobe.Alive in a test
}

// Ignored is suppressed by pidlint's directive.
func Ignored(pid int) bool {
	//pidlint:ignore PL001 the PID is our own child, started as the same user
	return syscall.Kill(pid, 0) == nil
}

// FindProcess is PL003, which .golangci.yml disables.
func FindProcess(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}

// Handled tells EPERM from ESRCH, so it is reported only because
// .golangci.yml sets strict: a raw probe that bypasses safeprobe.
func Handled(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Stale has a directive that suppresses nothing, which pidlint reports.
func Stale(pid int) bool {
	//pidlint:ignore PL004 no /proc probe here any more
	return safeprobe.Alive(pid)
}

// Alive is the right way: not reported.
func Alive(pid int) bool {
	return safeprobe.Alive(pid)
}
