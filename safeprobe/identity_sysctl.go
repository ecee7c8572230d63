//go:build darwin || freebsd

package safeprobe

import (
	"errors"
	"fmt"
)

// lookup reads the start time from kinfo_proc and asks the OS's
// kernIdentity (identity_darwin.go, identity_freebsd.go) for the rest.
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

func lookupState(pid int) (Identity, State, error) { return probeThenLookup(pid) }

// processUID is the effective user ID the process runs as, from kinfo_proc.
func processUID(pid int) (uint32, error) {
	info, err := sys.procInfo(pid)
	if errors.Is(err, errNoProcess) {
		return 0, processDone(pid)
	}
	return info.uid, err
}
