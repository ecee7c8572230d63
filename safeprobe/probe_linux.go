package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"sync"

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

func readStatus(pid int) (state byte, tgid int, err error) {
	// State and Tgid are the third and fourth lines.
	var buf [512]byte
	n, err := sys.readFile(procPath(pid, "status"), buf[:])
	if err != nil {
		return 0, 0, err
	}
	return parseStatus(buf[:n])
}

func lookup(pid int) (Identity, error) {
	id, _, err := lookupState(pid)
	return id, err
}

// lookupState reads the start time and the state from /proc/<pid>/stat.
// pidfd_open first tells a thread (EINVAL) from a process, as /proc/<tid>
// resolves too.
func lookupState(pid int) (Identity, State, error) {
	if !procIsOurs() {
		return Identity{}, Unknown, fmt.Errorf("safeprobe: identity of process %d: %w", pid, errForeignProc)
	}
	boot, err := bootID()
	if err != nil {
		return Identity{}, Unknown, err
	}
	fd, err := sys.pidfdOpen(pid)
	switch err {
	case nil:
		sys.closeFD(fd)
	case unix.ESRCH, unix.EINVAL:
		return Identity{}, NotFound, processDone(pid)
	default:
		fd = -1 // no pidfds: the thread check reads /proc/<pid>/status
	}
	// Field 22 can sit past byte 1024 only with a 64-byte command name
	// and huge counters; 2 KiB holds any stat line.
	var buf [2048]byte
	n, err := sys.readFile(procPath(pid, "stat"), buf[:])
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH) {
		if err := sys.kill(pid, 0); err == nil || err == unix.EPERM {
			return Identity{}, Unknown, fmt.Errorf("safeprobe: identity of process %d: hidden from /proc (hidepid?): %w", pid, ErrUnsupported)
		}
		return Identity{}, NotFound, processDone(pid)
	}
	if err != nil {
		return Identity{}, Unknown, fmt.Errorf("safeprobe: identity of process %d: %w", pid, err)
	}
	state, threads, start, err := parseStat(buf[:n])
	if err != nil {
		return Identity{}, Unknown, fmt.Errorf("safeprobe: identity of process %d: %w", pid, err)
	}
	if fd < 0 {
		if _, tgid, err := readStatus(pid); err == nil && tgid != pid {
			return Identity{}, NotFound, processDone(pid) // a thread, not a process
		}
	}
	return Identity{PID: pid, StartTime: start, BootID: boot}, stateOf(state, threads), nil
}

// bootID is read once: it changes only with a reboot, which ends the process.
var bootID = sync.OnceValues(func() (string, error) {
	var buf [64]byte
	n, err := sys.readFile("/proc/sys/kernel/random/boot_id", buf[:])
	if err != nil {
		return "", fmt.Errorf("safeprobe: boot id: %w", err)
	}
	id := string(trimSpace(buf[:n]))
	if len(id) != 36 {
		return "", fmt.Errorf("safeprobe: boot id %q: %w", id, errProcFormat)
	}
	return id, nil
})

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return b
}

// errForeignProc is the error for a /proc mounted from another PID
// namespace, where /proc/<pid> is not the process the PID names here.
var errForeignProc = fmt.Errorf("/proc is from another PID namespace: %w", ErrUnsupported)

// procIsOurs reports whether /proc shows this process's PID namespace. A
// container started without a /proc of its own sees its parent's, where
// /proc/self is this process under another PID, or dangles.
var procIsOurs = sync.OnceValue(func() bool {
	if _, err := os.Lstat("/proc/self"); err != nil {
		return true // no /proc at all: whatever reads it finds nothing
	}
	self, err := os.Readlink("/proc/self")
	return err == nil && self == strconv.Itoa(os.Getpid())
})

func procPath(pid int, file string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + file
}
