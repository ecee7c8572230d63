//go:build !unix && !windows

package safeprobe

import (
	"fmt"
	"os"
)

func probe(pid int) (State, error) {
	return Unknown, fmt.Errorf("safeprobe: process %d: %w", pid, ErrUnsupported)
}

func probeProcess(p *os.Process) (State, error) {
	return probe(p.Pid)
}
