package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"golang.org/x/sys/unix"
)

// lookup is lookupState without the state.
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

// processUID is the effective user ID the process runs as, from
// /proc/<pid>/status.
func processUID(pid int) (uint32, error) {
	if !procIsOurs() {
		return 0, errForeignProc
	}
	var buf [1024]byte // Uid is the ninth line, after a Name of at most 64 bytes (escaped: 256)
	n, err := sys.readFile(procPath(pid, "status"), buf[:])
	if err != nil {
		return 0, err
	}
	return parseStatusUID(buf[:n])
}
