package killzero // want package:"has wrappers"

// killzero holds daemon and pidfile code shapes for PL001.

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// isRunning is the classic pidfile check.
func isRunning(pid int) bool {
	return syscall.Kill(pid, 0) == nil // want `PL001: syscall.Kill\(pid, 0\) as a liveness test reads EPERM \(another user's process\) as dead and a zombie or reused PID as alive on every Unix \(where this code builds\); use safeprobe.Alive`
}

func isDead(pid int) bool {
	return unix.Kill(pid, 0) != nil // want `PL001: unix.Kill\(pid, 0\) as a liveness test .*; use safeprobe.Alive`
}

func checkPIDFile(pid int) error {
	if err := syscall.Kill(pid, syscall.Signal(0)); err != nil { // want `PL001: .*; use safeprobe.Check`
		return errors.New("stale pid file")
	}
	return nil
}

const probeSignal = syscall.Signal(0x0)

func namedSignal(pid int) bool {
	err := unix.Kill(pid, probeSignal) // want `PL001: unix.Kill`
	return err == nil
}

// processAlive returns true when the probe fails: inverted, so no fix.
func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) != nil // want `PL001: inverted liveness test`
}

func byMessage(pid int) bool {
	err := syscall.Kill(pid, 0) // want `PL001: syscall.Kill\(pid, 0\) decided by comparing err.Error\(\) text`
	return err == nil || err.Error() != "no such process"
}

func viaSyscall(pid int) bool {
	_, _, errno := syscall.Syscall(syscall.SYS_KILL, uintptr(pid), 0, 0) // want `PL001: syscall.Syscall\(SYS_KILL, pid, 0\) as a liveness test`
	return errno == 0
}

type pidfile struct{ pid int32 }

// The fix keeps the conversion the PID needed for kill.
func (p pidfile) stale() bool {
	return syscall.Kill(int(p.pid), 0) != nil // want `PL001: syscall.Kill`
}

// Correct code: EPERM is alive, only ESRCH is dead.

func aliveEPERM(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func aliveIsPermission(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || os.IsPermission(err)
}

func aliveEqual(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

func onlyESRCH(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func switchOnErr(pid int) bool {
	switch err := unix.Kill(pid, 0); err {
	case nil, unix.EPERM:
		return true
	}
	return false
}

func errnoAs(pid int) bool {
	err := syscall.Kill(pid, 0)
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno != syscall.ESRCH
	}
	return err == nil
}

// Not probes: real signals, pidfd probes, errors passed on.

func stop(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }

func pidfdAlive(fd int) bool { return unix.PidfdSendSignal(fd, 0, nil, 0) == nil }

// A permission check that hands the error on: the caller can tell EPERM
// apart. Its callers' verdicts are followed through a wrapper fact.
func canSignal(pid int) error { // want canSignal:"kill wrapper\\(sig=-1, pid=0, error\\)"
	if err := syscall.Kill(pid, 0); err != nil {
		return fmt.Errorf("cannot signal %d: %w", pid, err)
	}
	return nil
}

func daemonUp(pid int) bool {
	return canSignal(pid) == nil // want `PL006: canSignal \(a wrapper of kill\(pid, 0\)\) as a liveness test`
}

func logged(pid int) {
	_ = syscall.Kill(pid, 0)
}

// Kill is a look-alike taking string constants; it is not syscall.Kill.
func Kill(name, sig string) error { return nil }

func lookAlike() bool { return Kill("worker", "0") == nil }

// A process group: safeprobe answers for a process, so there is no fix.
func groupAlive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil // want `PL001: syscall.Kill\(pid, 0\) as a liveness test`
}
