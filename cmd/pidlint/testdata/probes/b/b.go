// Package b probes processes through package a's wrapper and directly.
package b

import (
	"os"
	"syscall"

	"example.com/probes/a"
)

// Alive reports whether pid is alive.
func Alive(pid int) bool {
	return a.Kill(pid, 0) == nil
}

// Exists reports whether the process exists.
func Exists(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}

// Stop asks the process to stop.
func Stop(pid int) error { return a.Kill(pid, syscall.SIGTERM) }
