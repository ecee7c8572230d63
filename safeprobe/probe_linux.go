package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"

	"golang.org/x/sys/unix"
)

// probe asks for a pidfd, which polls readable once the process has
// exited (a zombie until its parent reaps it). Kernels or sandboxes
// without pidfds get the procfs probe. Any other error (EMFILE) is Unknown
// with that error.
//
//	no process: NotFound
//	EPERM:      Running: pidfd_open needs no permission, and kill's EPERM means it exists
//	zombie:     Zombie; Running without pidfds where /proc hides it or is another namespace's
//	thread ID:  NotFound: pidfd_open refuses it, and without pidfds Tgid or tgkill tells
func probe(pid int) (State, error) {
	fd, s, err := openPidfd(pid)
	if fd < 0 {
		if s == Unknown && err == nil {
			return probeProcfs(pid)
		}
		return s, err
	}
	defer sys.closeFD(fd)
	return pidfdState(pid, fd)
}

// openPidfd opens a pidfd for the process with the PID. Without one it
// says why: NotFound for a PID no process has (ESRCH) or a thread that is
// not a process (ENOENT on recent kernels, EINVAL on older ones); Unknown with a
// nil error where pidfds are missing (ENOSYS before Linux 5.3, EPERM or
// EACCES from a seccomp filter, ENODEV); Unknown with the error for
// anything else, such as a full fd table (EMFILE), which says nothing
// about the process.
func openPidfd(pid int) (fd int, s State, err error) {
	fd, err = sys.pidfdOpen(pid)
	switch err {
	case nil:
		return fd, Running, nil
	case unix.ESRCH, unix.ENOENT, unix.EINVAL:
		return -1, NotFound, nil
	case unix.ENOSYS, unix.EPERM, unix.EACCES, unix.ENODEV:
		return -1, Unknown, nil
	}
	return -1, Unknown, fmt.Errorf("safeprobe: pidfd_open(%d): %w", pid, err)
}

// probeProcfs is kill(pid, 0) for existence, where EPERM means the process
// exists, and /proc/<pid>/status for the zombie state and the thread check.
// A /proc from another PID namespace is not read: there tgkill(pid, pid, 0)
// tells a thread from a process (it finds pid only as the leader of its
// own thread group), and a zombie cannot be told from a live process.
func probeProcfs(pid int) (State, error) {
	if s, err := killState(pid, sys.kill(pid, 0)); s != Running {
		return s, err
	}
	if !procIsOurs() {
		return killState(pid, sys.tgkill(pid, pid, 0))
	}
	state, tgid, err := readStatus(pid)
	switch {
	case procGone(err) || errors.Is(err, fs.ErrPermission):
		// Without procfs, or with hidepid hiding another user's process,
		// tgkill(pid, pid, 0) still tells a thread from a process; a zombie
		// cannot be told from a live process here.
		return killState(pid, sys.tgkill(pid, pid, 0))
	case err != nil:
		return Unknown, fmt.Errorf("safeprobe: process %d: %w", pid, err)
	case tgid != pid:
		return NotFound, nil // a thread, not a process
	}
	threads := 1
	if state == 'Z' {
		// status lists Threads far down; stat has it near the state.
		var buf [2048]byte
		n, err := sys.readFile(procPath(pid, "stat"), buf[:])
		if procGone(err) {
			return NotFound, nil
		}
		if err == nil {
			_, threads, _, err = parseStat(buf[:n])
		}
		if err != nil {
			return Unknown, fmt.Errorf("safeprobe: process %d: %w", pid, err)
		}
	}
	return stateOf(state, threads), nil
}
