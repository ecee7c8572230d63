package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/pidlint/pidlint/safeprobe"
)

// Exit codes of run, besides CMD's own: those of env(1) and timeout(1) for
// a command that cannot be found or run, and EX_TEMPFAIL (sysexits.h) for
// a lock another process holds.
const (
	runLocked     = 75
	runFailed     = 125
	runCannotExec = 126
	runNotFound   = 127
)

// runOptions is run's command line.
type runOptions struct {
	lock string
	wait time.Duration // 0: fail at once
	argv []string      // CMD and its arguments
	path string        // CMD as found in PATH
}

func runRun(args []string, stdout, stderr io.Writer) int {
	fs := flagSet("run")
	lock := fs.String("lock", "", "")
	wait := fs.Duration("wait", 0, "")
	nowait := fs.Bool("nowait", false, "")
	fs.SetOutput(io.Discard)
	// Flags end at CMD (or "--"): CMD's own flags are its own.
	switch err := fs.Parse(args); {
	case errors.Is(err, errHelp):
		fmt.Fprint(stdout, runHelp)
		return 0
	case err != nil:
		return usageError(stderr, "run", err)
	}
	o := runOptions{lock: *lock, wait: *wait, argv: fs.Args()}
	waitSet := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "wait" {
			waitSet = true
		}
	})
	switch {
	case o.lock == "":
		return usageError(stderr, "run", errors.New("-lock FILE is required"))
	case len(o.argv) == 0:
		return usageError(stderr, "run", errors.New("no command to run: want -- CMD [ARG...]"))
	case *nowait && waitSet:
		return usageError(stderr, "run", errors.New("-wait and -nowait exclude each other"))
	case waitSet && o.wait <= 0:
		return usageError(stderr, "run", fmt.Errorf("-wait %v: want a duration above zero (or -nowait)", o.wait))
	}
	// Find CMD before taking the lock: a typo must not hold it.
	path, err := exec.LookPath(o.argv[0])
	if err != nil {
		fmt.Fprintf(stderr, "safeprobe run: %v\n", err)
		if errors.Is(err, exec.ErrNotFound) {
			return runNotFound
		}
		return runCannotExec
	}
	o.path = path
	l, code := acquire(o, stderr)
	if l == nil {
		return code
	}
	return runHolding(l, o, stderr)
}

// acquire takes o's lock, at once or waiting up to o.wait; on failure it
// returns a nil Lock and the exit code, having said why.
func acquire(o runOptions, stderr io.Writer) (*safeprobe.Lock, int) {
	opts := &safeprobe.LockOptions{Program: holderProgram(o.path)}
	var (
		l   *safeprobe.Lock
		err error
	)
	if o.wait > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), o.wait)
		l, err = safeprobe.Acquire(ctx, o.lock, opts)
		cancel()
	} else {
		l, err = safeprobe.TryAcquire(o.lock, opts)
	}
	if err == nil {
		return l, 0
	}
	if errors.Is(err, safeprobe.ErrLocked) {
		fmt.Fprintf(stderr, "safeprobe run: %s is held by another process%s\n", o.lock, holderOf(o.lock))
		return nil, runLocked
	}
	fmt.Fprintf(stderr, "safeprobe run: %v\n", err)
	return nil, runFailed
}

// holderOf names the lock's holder as its record claims, for the
// message of a lock that could not be taken: "" if it cannot be read.
func holderOf(path string) string {
	st, err := safeprobe.Inspect(path)
	switch {
	case err != nil, !st.Held:
		return ""
	case st.Corrupt:
		return fmt.Sprintf(" (its record is corrupt: %s)", st.Reason)
	}
	return fmt.Sprintf(": %s (%s)", describe(st.Record), st.State)
}

// programName is the base name of the program at path, as records name
// programs.
func programName(path string) string { return filepath.Base(path) }
