package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func init() {
	// hold REPORT [ignore]: writes "pid=N fd=F" (F: SAFEPROBE_LOCK_FD) to
	// REPORT, then waits for SIGTERM or SIGINT (a Ctrl+Break on Windows),
	// appends "signal=NAME" and exits 0; with ignore it records the
	// signals and keeps running until killed.
	helperModes["hold"] = func(args []string) int {
		if len(args) < 1 {
			return 100
		}
		signals := make(chan os.Signal, 8)
		signal.Notify(signals, syscall.SIGTERM, os.Interrupt)
		report := args[0]
		if err := appendFile(report, fmt.Sprintf("pid=%d fd=%s\n", os.Getpid(), os.Getenv("SAFEPROBE_LOCK_FD"))); err != nil {
			return 101
		}
		ignore := len(args) > 1 && args[1] == "ignore"
		for sig := range signals {
			if err := appendFile(report, "signal="+sig.String()+"\n"); err != nil || !ignore {
				return 0
			}
		}
		return 0
	}
	// exit CODE: exits with CODE.
	helperModes["exit"] = func(args []string) int {
		code, err := strconv.Atoi(args[0])
		if err != nil {
			return 100
		}
		return code
	}
}

func appendFile(name, s string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// holder is a safeprobe run holding a lock and running the hold helper.
type holder struct {
	cmd            *exec.Cmd
	done           chan error
	stdout, stderr bytes.Buffer
	report         string
	pid            int    // the helper's, from its report
	fd             string // SAFEPROBE_LOCK_FD, from its report
}

// startHolder starts safeprobe run -lock lock [flags] -- hold helper
// [ignore], waits until the helper runs, and kills it at the end of the
// test if it still runs.
func startHolder(t *testing.T, lock string, flags []string, helperArgs ...string) *holder {
	t.Helper()
	report := filepath.Join(tempDir(t), "report")
	args := append([]string{"run", "-lock", lock}, flags...)
	args = append(args, "--", testExe(t), helperRole, "hold", report)
	h := launch(t, append(args, helperArgs...)...)
	h.report = report
	h.pid, h.fd = readReport(t, report)
	if h.pid != h.cmd.Process.Pid {
		// On Windows run is the helper's parent, and killing it leaves the
		// helper running; under Wine it would hold the test binary's
		// output open after the binary exits. (Cleanups run last first:
		// this before launch's.)
		t.Cleanup(func() {
			if p, err := os.FindProcess(h.pid); err == nil {
				p.Kill()
				p.Release()
			}
		})
	}
	return h
}

// launch starts safeprobe with args, killing it at the end of the test if
// it still runs.
func launch(t *testing.T, args ...string) *holder {
	t.Helper()
	h := &holder{done: make(chan error, 1)}
	h.cmd = safeprobeCmd(t, args...)
	h.cmd.Stdout, h.cmd.Stderr = &h.stdout, &h.stderr
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.done <- h.cmd.Wait() }()
	t.Cleanup(func() {
		select {
		case <-h.done:
		default:
			h.cmd.Process.Kill()
			<-h.done
		}
	})
	return h
}

// wait waits up to a minute for the holder to exit and returns its result.
func (h *holder) wait(t *testing.T) result {
	t.Helper()
	var err error
	select {
	case err = <-h.done:
		h.done <- err // for the cleanup
	case <-time.After(time.Minute):
		t.Fatalf("safeprobe run still running after a minute")
	}
	r := result{stdout: h.stdout.String(), stderr: h.stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return r
}

// readReport waits until the hold helper's report has a pid line and
// returns its fields.
func readReport(t *testing.T, report string) (pid int, fd string) {
	t.Helper()
	waitFor(t, "the helper's report", func() bool {
		b, _ := os.ReadFile(report)
		return strings.Contains(string(b), "\n")
	})
	b, _ := os.ReadFile(report)
	line := strings.SplitN(string(b), "\n", 2)[0]
	if _, err := fmt.Sscanf(line, "pid=%d fd=%s", &pid, &fd); err != nil {
		// An empty fd (not set) leaves %s unmatched.
		if _, err := fmt.Sscanf(line, "pid=%d fd=", &pid); err != nil {
			t.Fatalf("report %q: %v", line, err)
		}
	}
	return pid, fd
}

// signalsReceived returns the signals the hold helper recorded.
func signalsReceived(report string) []string {
	b, _ := os.ReadFile(report)
	var sigs []string
	for _, line := range strings.Split(string(b), "\n") {
		if s, ok := strings.CutPrefix(line, "signal="); ok {
			sigs = append(sigs, s)
		}
	}
	return sigs
}

// lockDir returns a directory for lock files that only this user may
// change, as the lock requires of every directory above it.
func lockDir(t *testing.T) string {
	t.Helper()
	dir := tempDir(t)
	if runtime.GOOS == "windows" {
		return dir // its DACL is its creator's alone
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// tempDir is t.TempDir, but removed entry by entry from the deepest up:
// under Wine os.RemoveAll fails ("Invalid function"), lacking the
// POSIX-semantics delete Go uses on Windows, where os.Remove works.
func tempDir(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "windows" {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("", "safeprobe-cli")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		var paths []string
		filepath.WalkDir(dir, func(p string, _ fs.DirEntry, _ error) error {
			paths = append(paths, p)
			return nil
		})
		for i := len(paths) - 1; i >= 0; i-- {
			os.Remove(paths[i])
		}
		if _, err := os.Lstat(dir); err == nil {
			t.Errorf("cannot remove %s", dir)
		}
	})
	return dir
}

// waitFree waits for up to 30 s until the lock at path is free.
func waitFree(t *testing.T, path string) {
	t.Helper()
	waitFor(t, "the lock to be free", func() bool {
		return sp(t, "status", path).code != statusRunning
	})
}
