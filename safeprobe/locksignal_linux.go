package safeprobe

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// signalVerified sends sig to process pid once verify accepts it, through
// a pidfd opened before verify runs: verify reads /proc, and a pidfd that
// still polls as running afterwards names the process /proc showed, not
// one that exited and left its PID to the one verified. It opens its own
// pidfd rather than asking os.FindProcess, whose Process falls back to the
// bare PID when pidfd_open fails (EMFILE), and from then on in the whole
// process when its first one failed, and which has no pidfd at all before
// Go 1.23. When no pidfd can be had, nothing is signalled; only where the
// kernel has no pidfds at all is it kill(2) right after verify.
//
//	no process: a *ProcessError, NotFound; verify does not run
//	EPERM:      after verify, pidfd_send_signal's EPERM: nothing is sent
//	zombie:     after verify, a *ProcessError, NotFound (the pidfd polls readable): nothing is sent
//	thread ID:  a *ProcessError, NotFound (pidfd_open refuses it); verify does not run
func signalVerified(pid int, sig os.Signal, verify func() error) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return fmt.Errorf("signal %v: %w", sig, ErrUnsupported)
	}
	fd, state, err := openPidfd(pid)
	switch {
	case fd >= 0:
		defer sys.closeFD(fd)
	case state == NotFound:
		return &ProcessError{PID: pid, State: NotFound}
	case err != nil:
		return fmt.Errorf("no pidfd to signal through, so no signal: %w", err)
	}
	if err := verify(); err != nil {
		return err
	}
	if fd < 0 {
		return signalState(pid, sys.kill(pid, s))
	}
	exited, err := sys.pollIn(fd)
	switch {
	case err != nil:
		return fmt.Errorf("safeprobe: poll pidfd of process %d: %w", pid, err)
	case exited:
		return &ProcessError{PID: pid, State: NotFound}
	}
	return signalState(pid, sys.pidfdSendSignal(fd, s))
}

// signalState reads a signal's error: ESRCH is a process that has exited.
func signalState(pid int, err error) error {
	if err == unix.ESRCH {
		return &ProcessError{PID: pid, State: NotFound}
	}
	return err
}
