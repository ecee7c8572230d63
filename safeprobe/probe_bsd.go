//go:build darwin || freebsd

package safeprobe

import (
	"errors"
	"fmt"
)

// probe is kill(pid, 0) for existence, where EPERM means the process exists,
// and the kernel's kinfo_proc for the zombie state. macOS has no procfs and
// FreeBSD does not mount it by default.
func probe(pid int) (State, error) {
	if s, err := killState(pid, sys.kill(pid, 0)); s != Running {
		return s, err
	}
	info, err := sys.procInfo(pid)
	switch {
	case errors.Is(err, errNoProcess):
		return NotFound, nil // exited since kill
	case err != nil:
		return Running, nil // kill proved it exists; only the zombie check is lost
	case info.zombie:
		return Zombie, nil
	}
	return Running, nil
}

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
