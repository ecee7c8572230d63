//go:build !unix && !windows

package safeprobe

import (
	"fmt"
	"os"
)

// probe asks nothing: safeprobe does not know these OSes' processes.
//
//	no process, EPERM, zombie, thread ID: Unknown, ErrUnsupported
func probe(pid int) (State, error) {
	return Unknown, fmt.Errorf("safeprobe: process %d: %w", pid, ErrUnsupported)
}

// probeProcess is probe of p.Pid.
//
//	no process, EPERM, zombie, thread ID: Unknown, ErrUnsupported
func probeProcess(p *os.Process) (State, error) {
	return probe(p.Pid)
}
