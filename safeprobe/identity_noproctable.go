//go:build !darwin && !freebsd && !linux && !windows

package safeprobe

import "fmt"

// lookup: safeprobe reads no process table here, so no identity.
//
//	no process, EPERM, zombie, thread ID: ErrUnsupported
func lookup(pid int) (Identity, error) {
	return Identity{}, fmt.Errorf("safeprobe: identity of process %d: %w", pid, ErrUnsupported)
}

// lookupState is lookup after probe (probeThenLookup).
//
//	no process: NotFound, os.ErrProcessDone where probe asks kill(2), else Unknown, ErrUnsupported
//	EPERM:      Unknown, ErrUnsupported
//	zombie:     Unknown, ErrUnsupported
//	thread ID:  as the PID kill(2) takes it for
func lookupState(pid int) (Identity, State, error) { return probeThenLookup(pid) }

// processUID: safeprobe reads no process table here.
//
//	no process, EPERM, zombie, thread ID: ErrUnsupported
func processUID(pid int) (uint32, error) {
	return 0, fmt.Errorf("safeprobe: owner of process %d: %w", pid, ErrUnsupported)
}
