package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The test binary is safeprobe too: run as "safeprobe-main VERB ..." it is
// the command (so that tests run it as a user does, in processes of its
// own, on every OS, Wine included, where there is no go command to build
// it), and as "safeprobe-helper MODE ..." it is a program for run to run.
const (
	mainRole   = "safeprobe-main"
	helperRole = "safeprobe-helper"
)

// helperModes maps a helper mode to what it does; it returns the exit
// code.
var helperModes = map[string]func(args []string) int{}

func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case mainRole:
			os.Exit(dispatch(os.Args[2:], os.Stdout, os.Stderr))
		case helperRole:
			if len(os.Args) < 3 || helperModes[os.Args[2]] == nil {
				fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", os.Args[2:])
				os.Exit(100)
			}
			os.Exit(helperModes[os.Args[2]](os.Args[3:]))
		}
	}
	os.Exit(m.Run())
}

// testExe is this test binary.
func testExe(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// safeprobeCmd returns a command running safeprobe with args.
func safeprobeCmd(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	return exec.Command(testExe(t), append([]string{mainRole}, args...)...)
}

// result is a finished safeprobe run.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
}

// sp runs safeprobe with args to the end, within a minute.
func sp(t testing.TB, args ...string) result {
	t.Helper()
	return finish(t, safeprobeCmd(t, args...))
}

// finish runs cmd to the end, within a minute, and returns its result.
func finish(t testing.TB, cmd *exec.Cmd) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v: still running after a minute", cmd.Args)
	}
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	return r
}

// wantExit fails the test unless r exited with code and its output holds
// each of the strings in want.
func wantExit(t testing.TB, r result, code int, want ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit %d, want %d\n%v", r.code, code, r)
		return
	}
	for _, w := range want {
		if !strings.Contains(r.stdout+r.stderr, w) {
			t.Errorf("output does not say %q\n%v", w, r)
		}
	}
}

// waitFor polls cond every few milliseconds for up to 30 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
