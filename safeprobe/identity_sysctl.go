//go:build darwin || freebsd

package safeprobe

import (
	"errors"
	"fmt"
)

// lookup reads the start time from kinfo_proc and asks the OS's
// kernIdentity (identity_darwin.go, identity_freebsd.go) for the rest.
//
//	no process: an error matching os.ErrProcessDone
//	EPERM:      the identity, as readKinfo
//	zombie:     the identity, which a zombie keeps until it is reaped
//	thread ID:  as readKinfo: an error matching os.ErrProcessDone unless the number is a PID
func lookup(pid int) (Identity, error) {
	info, err := sys.procInfo(pid)
	switch {
	case errors.Is(err, errNoProcess):
		return Identity{}, processDone(pid)
	case err != nil:
		return Identity{}, fmt.Errorf("safeprobe: identity of process %d: %w", pid, err)
	}
	start, boot, err := sys.identity(info)
	if err != nil {
		return Identity{}, fmt.Errorf("safeprobe: identity of process %d: %w", pid, err)
	}
	return Identity{PID: pid, StartTime: start, BootID: boot}, nil
}

// lookupState is lookup after probe (probeThenLookup).
//
//	no process: NotFound, an error matching os.ErrProcessDone
//	EPERM:      the identity, Running
//	zombie:     the identity, Zombie
//	thread ID:  as probe
func lookupState(pid int) (Identity, State, error) { return probeThenLookup(pid) }

// processUID is the effective user ID the process runs as, from kinfo_proc.
//
//	no process: an error matching os.ErrProcessDone
//	EPERM:      its effective user ID
//	zombie:     the effective user ID its kinfo_proc holds
//	thread ID:  as lookup
func processUID(pid int) (uint32, error) {
	info, err := sys.procInfo(pid)
	if errors.Is(err, errNoProcess) {
		return 0, processDone(pid)
	}
	return info.uid, err
}
