//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/pidlint/pidlint/safeprobe"
)

// holderProgram is the program name the record gives: CMD's, as CMD is
// what holds the lock once exec'd.
func holderProgram(path string) string { return programName(path) }

// runHolding execs CMD in this process's place, handing it the lock; it
// returns only if the exec failed, having released the lock.
func runHolding(l *safeprobe.Lock, o runOptions, stderr io.Writer) int {
	err := l.Exec(o.path, o.argv, os.Environ())
	fmt.Fprintf(stderr, "safeprobe run: %v\n", err)
	if rerr := l.Release(); rerr != nil {
		fmt.Fprintf(stderr, "safeprobe run: %v\n", rerr)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return runNotFound
	case errors.Is(err, safeprobe.ErrNotHeld):
		return runFailed
	}
	return runCannotExec
}
