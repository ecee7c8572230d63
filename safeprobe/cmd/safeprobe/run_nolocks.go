//go:build !darwin && !dragonfly && !freebsd && !linux && !netbsd && !openbsd && !windows

package main

import (
	"fmt"
	"io"

	"github.com/pidlint/pidlint/safeprobe"
)

// safeprobe has no file lock on this OS: acquire fails before this is
// reached, with ErrUnsupported.

func holderProgram(path string) string { return programName(path) }

func runHolding(l *safeprobe.Lock, o runOptions, stderr io.Writer) int {
	l.Release()
	fmt.Fprintf(stderr, "safeprobe run: holding a lock while running a command: %v\n", safeprobe.ErrUnsupported)
	return runFailed
}
