//go:build !darwin && !freebsd && !linux && !windows

package safeprobe

import "fmt"

// lookup: safeprobe reads no process table here, so no identity.
func lookup(pid int) (Identity, error) {
	return Identity{}, fmt.Errorf("safeprobe: identity of process %d: %w", pid, ErrUnsupported)
}

func lookupState(pid int) (Identity, State, error) { return probeThenLookup(pid) }

// processUID: safeprobe reads no process table here.
func processUID(pid int) (uint32, error) {
	return 0, fmt.Errorf("safeprobe: owner of process %d: %w", pid, ErrUnsupported)
}
