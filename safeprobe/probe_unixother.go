//go:build unix && !linux && !darwin && !freebsd

package safeprobe

import (
	"fmt"
	"syscall"
)

// probe on the other Unix systems is kill(pid, 0) with EPERM read as
// "exists"; safeprobe does not read their process tables, so a zombie reads
// as Running there.
func probe(pid int) (State, error) {
	return killState(pid, syscall.Kill(pid, 0))
}

func lookup(pid int) (Identity, error) {
	return Identity{}, fmt.Errorf("safeprobe: identity of process %d: %w", pid, ErrUnsupported)
}
