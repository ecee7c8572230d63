package safeprobe

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Reading and parsing /proc: shared by the probe and the identity.

var errProcFormat = errors.New("unexpected /proc format")

// parseStat returns the state (field 3), the number of threads (field 20)
// and the start time (field 22, clock ticks since boot) from the contents
// of /proc/<pid>/stat. The command name in field 2 may hold spaces,
// parentheses and newlines, so the fields are counted from the last ')'.
func parseStat(b []byte) (state byte, threads int, start uint64, err error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || bytes.IndexByte(b, '(') < 0 {
		return 0, 0, 0, fmt.Errorf("%w: no command name in stat", errProcFormat)
	}
	// Field 3 is the state, the first after the name; field 20, the 18th,
	// the threads; field 22, the 20th, the start.
	var stateField, threadsField, startField []byte
	n := 0
	for rest := b[i+1:]; n < 20; n++ {
		rest = bytes.TrimLeft(rest, " \n")
		if len(rest) == 0 {
			break
		}
		end := bytes.IndexAny(rest, " \n")
		if end < 0 {
			end = len(rest)
		}
		switch n {
		case 0:
			stateField = rest[:end]
		case 17:
			threadsField = rest[:end]
		case 19:
			startField = rest[:end]
		}
		rest = rest[end:]
	}
	if n < 20 || len(stateField) != 1 {
		return 0, 0, 0, fmt.Errorf("%w: %d fields after the command name in stat", errProcFormat, n)
	}
	threads, err = strconv.Atoi(string(threadsField))
	if err != nil || threads < 0 {
		return 0, 0, 0, fmt.Errorf("%w: thread count %q", errProcFormat, threadsField)
	}
	start, err = strconv.ParseUint(string(startField), 10, 64)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%w: start time %q", errProcFormat, startField)
	}
	return stateField[0], threads, start, nil
}

// parseStatus returns the state letter and the thread group ID from the
// contents of /proc/<pid>/status.
func parseStatus(b []byte) (state byte, tgid int, err error) {
	for rest := b; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		key, val, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		val = bytes.TrimSpace(val)
		switch string(key) {
		case "State":
			if len(val) == 0 {
				return 0, 0, fmt.Errorf("%w: empty State in status", errProcFormat)
			}
			state = val[0]
		case "Tgid":
			tgid, err = strconv.Atoi(string(val))
			if err != nil {
				return 0, 0, fmt.Errorf("%w: Tgid %q in status", errProcFormat, val)
			}
		}
		if state != 0 && tgid != 0 {
			return state, tgid, nil
		}
	}
	return 0, 0, fmt.Errorf("%w: no State and Tgid in status", errProcFormat)
}

// parseStatusUID returns the effective user ID, the second of the Uid
// line's real, effective, saved and file system IDs, from the contents of
// /proc/<pid>/status.
func parseStatusUID(b []byte) (uint32, error) {
	for rest := b; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		val, ok := bytes.CutPrefix(line, []byte("Uid:"))
		if !ok {
			continue
		}
		f := bytes.Fields(val)
		if len(f) < 2 {
			break
		}
		uid, err := strconv.ParseUint(string(f[1]), 10, 32)
		if err != nil {
			break
		}
		return uint32(uid), nil
	}
	return 0, fmt.Errorf("%w: no Uid line in status", errProcFormat)
}

// stateOf maps a /proc state letter and thread count to a State. X (dead)
// is a process being released; Z is a zombie, unless other threads still
// run (the letter is the main thread's, which may exit before the rest);
// every other letter (running, sleeping, stopped, traced, idle, disk wait,
// parked) is a live process.
func stateOf(letter byte, threads int) State {
	switch letter {
	case 'Z':
		if threads > 1 {
			return Running
		}
		return Zombie
	case 'X', 'x':
		return NotFound
	}
	return Running
}

// readSmallFile reads name into buf without the allocations of os.ReadFile.
// It reads once: procfs hands a whole stat or status line to one read of a
// buffer large enough, and a second read only to learn of the end costs a
// system call per probe.
func readSmallFile(name string, buf []byte) (int, error) {
	fd, err := unix.Open(name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	for {
		n, err := unix.Read(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, &os.PathError{Op: "read", Path: name, Err: err}
		}
		return n, nil
	}
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

// errForeignProc is the error for a /proc mounted from another PID
// namespace, where /proc/<pid> is not the process the PID names here.
var errForeignProc = fmt.Errorf("/proc is from another PID namespace: %w", ErrUnsupported)

// procIsOurs reports whether /proc shows this process's PID namespace. A
// container started without a /proc of its own sees its parent's, where
// /proc/self is this process under another PID, or dangles. The answer is
// cached once /proc answered; an error (ENOMEM, say) reads as foreign, the
// safe side, and is asked again next time.
func procIsOurs() bool {
	if ours, ok := procOurs.get(); ok {
		return ours
	}
	ours, known := readProcIsOurs()
	if known {
		procOurs.set(ours)
	}
	return ours
}

var procOurs knownFact

// knownFact caches a yes or no about the kernel once it is known, so that
// a failure to learn it is not cached.
type knownFact struct{ v atomic.Int32 } // 0 unknown, 1 yes, 2 no

func (f *knownFact) get() (yes, known bool) {
	v := f.v.Load()
	return v == 1, v != 0
}

func (f *knownFact) set(yes bool) {
	if yes {
		f.v.Store(1)
	} else {
		f.v.Store(2)
	}
}

func readProcIsOurs() (ours, known bool) {
	if _, err := os.Lstat("/proc/self"); errors.Is(err, fs.ErrNotExist) {
		return true, true // no /proc at all: whatever reads it finds nothing
	} else if err != nil {
		return false, false
	}
	self, err := os.Readlink("/proc/self")
	switch {
	case err == nil:
		return self == strconv.Itoa(os.Getpid()), true
	case errors.Is(err, fs.ErrNotExist):
		return false, true // this process has no PID in that /proc's namespace
	}
	return false, false
}

func procPath(pid int, file string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + file
}
