package safeprobe

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// probe asks for a pidfd: pidfd_open fails with ESRCH for a PID no process
// has and with EINVAL for a thread that is not a thread group leader, and
// the pidfd polls readable once the process has exited (a zombie until its
// parent reaps it). Kernels or sandboxes without pidfds get the procfs probe.
func probe(pid int) (State, error) {
	fd, err := sys.pidfdOpen(pid)
	switch err {
	case nil:
		defer sys.closeFD(fd)
		exited, err := sys.pollIn(fd)
		switch {
		case err != nil:
			return Unknown, fmt.Errorf("safeprobe: poll pidfd of process %d: %w", pid, err)
		case exited:
			return Zombie, nil
		}
		return Running, nil
	case unix.ESRCH, unix.EINVAL:
		return NotFound, nil
	}
	return probeProcfs(pid)
}

// probeProcfs is kill(pid, 0) for existence, where EPERM means the process
// exists, and /proc/<pid>/status for the zombie state and the thread check.
func probeProcfs(pid int) (State, error) {
	if s, err := killState(pid, sys.kill(pid, 0)); s != Running || !procIsOurs() {
		return s, err
	}
	state, tgid, err := readStatus(pid)
	if err != nil {
		// Without procfs, or with hidepid hiding another user's process,
		// kill's answer is all there is, unless the process just exited.
		if sys.kill(pid, 0) == unix.ESRCH {
			return NotFound, nil
		}
		return Running, nil
	}
	if tgid != pid {
		return NotFound, nil // a thread, not a process
	}
	threads := 1
	if state == 'Z' {
		// status lists Threads far down; stat has it near the state.
		var buf [2048]byte
		if n, err := sys.readFile(procPath(pid, "stat"), buf[:]); err == nil {
			if _, t, _, err := parseStat(buf[:n]); err == nil {
				threads = t
			}
		}
	}
	return stateOf(state, threads), nil
}
