package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/safeprobe"
)

// TestHelp checks that the help shows each verb's usage and one example
// per verb, and that each verb's -help and help VERB show its exit codes.
func TestHelp(t *testing.T) {
	r := sp(t, "-help")
	wantExit(t, r, 0, "Usage:", "Examples:")
	for _, v := range verbs {
		if n := strings.Count(r.stdout, "  $ safeprobe "+v.name+" ") + strings.Count(r.stdout, "  $ exec safeprobe "+v.name+" "); n != 1 {
			t.Errorf("-help has %d examples of %s, want 1:\n%s", n, v.name, r.stdout)
		}
		for _, args := range [][]string{{v.name, "-help"}, {"help", v.name}} {
			r := sp(t, args...)
			wantExit(t, r, 0, "safeprobe "+v.name, "Exit status:", "Example:")
		}
	}
	wantExit(t, sp(t), exitUsage, "Usage:")
	wantExit(t, sp(t, "frobnicate"), exitUsage, `unknown verb "frobnicate"`, "-help for more")
	wantExit(t, sp(t, "help", "frobnicate"), exitUsage, `no verb "frobnicate"`)
}

// TestAliveBadPID checks that a PID no process can have is refused with
// exit 2 and a message saying what kill(2) would have made of it.
func TestAliveBadPID(t *testing.T) {
	for arg, want := range map[string]string{
		"abc":         `"abc" is not a PID`,
		"":            "empty PID",
		"0":           "0 is no process's PID: kill(2) would signal the caller's own process group",
		"-1":          "-1 is no process's PID: kill(2) would signal every process",
		"-42":         "would signal process group 42",
		"4294967295":  "4294967295 is out of range 1..2147483647: kill(2) takes a 32-bit pid_t and would read it as -1",
		"4294967296":  "would read it as 0",
		"99999999999": "99999999999 is out of range",
		"+5":          `"+5" is not a PID`,
		"0x10":        `"0x10" is not a PID`,
	} {
		wantExit(t, sp(t, "alive", arg), exitUsage, want, "(safeprobe alive -help for more)")
	}
	wantExit(t, sp(t, "alive"), exitUsage, "want one PID")
	wantExit(t, sp(t, "alive", "1", "2"), exitUsage, "want one PID, got 2")
	wantExit(t, sp(t, "alive", "-frob", "1"), exitUsage, "-frob")
}

// TestAlive checks running and gone processes, and -json's identity.
func TestAlive(t *testing.T) {
	self := strconv.Itoa(os.Getpid())
	wantExit(t, sp(t, "alive", self), aliveRunning, "pid "+self+" is running")
	r := sp(t, "alive", "-json", self)
	wantExit(t, r, aliveRunning)
	var out aliveJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	want, err := safeprobe.Self()
	if err != nil {
		t.Fatal(err)
	}
	if out.State != "running" || !out.Running || out.Identity == nil || !out.Identity.Same(want) {
		t.Errorf("alive -json = %+v, want running with identity %v", out, want)
	}
	// Flags after the operand work too.
	wantExit(t, sp(t, "alive", self, "-json"), aliveRunning, `"state":"running"`)

	gone := exec.Command(testExe(t), helperRole, "exit", "0")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(gone.Process.Pid)
	wantExit(t, sp(t, "alive", pid), aliveGone, "pid "+pid+" is not running")
	wantExit(t, sp(t, "alive", "-json", pid), aliveGone, `"state":"not found","running":false}`)
}

// TestRunUsage checks run's command-line errors: exit 2, nothing locked.
func TestRunUsage(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--", "x"}, "-lock FILE is required"},
		{[]string{"run", "-lock", lock}, "no command to run"},
		{[]string{"run", "-lock", lock, "-nowait", "-wait", "1s", "--", "x"}, "-wait and -nowait exclude each other"},
		{[]string{"run", "-lock", lock, "-wait", "0s", "--", "x"}, "want a duration above zero"},
		{[]string{"run", "-lock", lock, "-wait", "soon", "--", "x"}, "invalid value"},
		{[]string{"run", "-frob", "--", "x"}, "-frob"},
	} {
		wantExit(t, sp(t, c.args...), exitUsage, c.want, "(safeprobe run -help for more)")
	}
	if _, err := os.Lstat(lock); !os.IsNotExist(err) {
		t.Errorf("a usage error left %s: %v", lock, err)
	}
}

// TestRunCommandNotFound checks that a command that does not exist exits
// 127 without taking the lock.
func TestRunCommandNotFound(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	wantExit(t, sp(t, "run", "-lock", lock, "--", "no-such-command-for-safeprobe"), runNotFound, "no-such-command-for-safeprobe")
	if _, err := os.Lstat(lock); !os.IsNotExist(err) {
		t.Errorf("a missing command left %s: %v", lock, err)
	}
}

// TestRunExitCode checks that run exits with the command's exit code and
// leaves the lock free.
func TestRunExitCode(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	wantExit(t, sp(t, "run", "-lock", lock, "--", testExe(t), helperRole, "exit", "7"), 7)
	if r := sp(t, "status", lock); r.code == statusRunning {
		t.Errorf("the lock is held after the command exited:\n%v", r)
	}
}

// TestStatusUsageAndMissing checks status's usage errors and a missing
// lock file (LSB 3).
func TestStatusUsageAndMissing(t *testing.T) {
	dir := lockDir(t)
	wantExit(t, sp(t, "status"), exitUsage, "want one lock file")
	wantExit(t, sp(t, "status", "a", "b"), exitUsage, "want one lock file, got 2")
	lock := filepath.Join(dir, "app.pid")
	wantExit(t, sp(t, "status", lock), statusNotRunning, "not running: no lock file at "+lock)
	wantExit(t, sp(t, "status", "-json", lock), statusNotRunning, `"status":"not running","code":3`)
	// A directory as the lock path is refused, not read.
	wantExit(t, sp(t, "status", dir), statusUnknown, "unknown:", "a directory")
}

// TestStopUsageAndMissing checks stop's usage errors and a missing lock
// file (exit 1, nothing signalled).
func TestStopUsageAndMissing(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	wantExit(t, sp(t, "stop"), exitUsage, "want one lock file")
	wantExit(t, sp(t, "stop", "-timeout", "0s", lock), exitUsage, "-timeout 0s: want a duration above zero")
	wantExit(t, sp(t, "stop", "-signal", "NOPE", lock), exitUsage, "-signal NOPE")
	wantExit(t, sp(t, "stop", lock), stopNotRunning, "not running: no lock file")
	wantExit(t, sp(t, "stop", "-json", lock), stopNotRunning, `"result":"not running","code":1`)
}

// TestRunStatusStop is the whole life of a lock: run holds it, a second
// run is refused naming the holder, status names it, stop ends it through
// the signal it verified, and the file is gone.
func TestRunStatusStop(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	h := startHolder(t, lock, nil)

	r := sp(t, "run", "-lock", lock, "--", testExe(t), helperRole, "exit", "0")
	wantExit(t, r, runLocked, "is held by another process")

	r = sp(t, "status", "-json", lock)
	wantExit(t, r, statusRunning)
	var st statusJSON
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if st.Status != "running" || !st.Held || st.Holder == nil || st.Holder.Identity == nil || st.State != "running" {
		t.Fatalf("status -json = %+v", st)
	}
	holderPID := st.Holder.PID
	if !strings.Contains(r.stdout, strconv.Itoa(holderPID)) {
		t.Errorf("status does not name pid %d", holderPID)
	}

	if runtime.GOOS == "windows" {
		// The gentle stop is a console event, which needs a console
		// (TestStopWindowsCtrlBreak); TerminateProcess needs none, and the
		// job object ends the command with its holder.
		r = sp(t, "stop", "-json", "-signal", "KILL", lock)
		wantExit(t, r, stopStopped, `"result":"stopped"`, `"signals":["TerminateProcess"]`, "removed the file it left")
		h.wait(t)
		waitFor(t, "the command to end with its holder", func() bool {
			s, _ := safeprobe.Probe(h.pid)
			return s != safeprobe.Running
		})
		wantExit(t, sp(t, "status", lock), statusNotRunning)
		return
	}
	r = sp(t, "stop", "-json", lock)
	wantExit(t, r, stopStopped, `"result":"stopped"`, "removed the file it left")
	if sigs := signalsReceived(h.report); len(sigs) != 1 {
		t.Errorf("the command got signals %q, want one", sigs)
	}
	if r := h.wait(t); r.code != 0 {
		t.Errorf("safeprobe run after stop: %v", r)
	}
	wantExit(t, sp(t, "status", lock), statusNotRunning)
}
