package safeprobe

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows"
)

// lookup reads the creation time of the process, as a FILETIME (100 ns
// intervals since 1601): absolute, so no boot ID is needed. An exited
// process whose object some open handle keeps alive still has its identity,
// and its PID cannot be reused until that handle is closed.
//
//	no process: an error matching os.ErrProcessDone, as for an alias pid+1..pid+3
//	EPERM:      an error wrapping ERROR_ACCESS_DENIED (a protected process)
//	zombie:     none on Windows: an exited process a handle keeps has its identity
//	thread ID:  an error matching os.ErrProcessDone: OpenProcess refuses a thread's ID
func lookup(pid int) (Identity, error) {
	h, err := sys.openProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, uint32(pid))
	switch {
	case errors.Is(err, windows.ERROR_INVALID_PARAMETER):
		return Identity{}, processDone(pid)
	case err != nil:
		return Identity{}, fmt.Errorf("safeprobe: identity of process %d: OpenProcess: %w", pid, err)
	}
	defer sys.closeHandle(h)
	switch same, err := sameProcess(h, pid); {
	case err != nil:
		return Identity{}, fmt.Errorf("safeprobe: identity of process %d: %w", pid, err)
	case !same:
		return Identity{}, processDone(pid)
	}
	created, _, err := sys.getProcessTimes(h)
	if err != nil {
		return Identity{}, fmt.Errorf("safeprobe: identity of process %d: GetProcessTimes: %w", pid, err)
	}
	start := uint64(created.HighDateTime)<<32 | uint64(created.LowDateTime)
	return Identity{PID: pid, StartTime: start}, nil
}

// lookupState is lookup after probe (probeThenLookup).
//
//	no process: NotFound, an error matching os.ErrProcessDone
//	EPERM:      as probe, then lookup: ERROR_ACCESS_DENIED for a protected process
//	zombie:     NotFound, an error matching os.ErrProcessDone: probe finds an exited process gone
//	thread ID:  NotFound, an error matching os.ErrProcessDone
func lookupState(pid int) (Identity, State, error) { return probeThenLookup(pid) }
