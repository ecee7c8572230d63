package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/safeprobe"
)

// TestStopWindowsCtrlBreak checks stop's gentle path: a console
// Ctrl+Break to the command safeprobe run started, in its own process
// group. Where no console event can be delivered to the holder's console
// (no console, or Wine, which does not deliver one to a process attached
// from outside), stop refuses without signalling anyone, and -kill goes
// straight to TerminateProcess.
func TestStopWindowsCtrlBreak(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	h := startHolder(t, lock, nil)
	r := sp(t, "stop", "-json", "-timeout", "20s", lock)
	var out stopJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v\n%v", err, r)
	}
	switch {
	case r.code == stopStopped:
		if sigs := signalsReceived(h.report); len(sigs) != 1 {
			t.Errorf("the command got %q, want one Ctrl+Break", sigs)
		}
		if got := h.wait(t); got.code != 0 {
			t.Errorf("safeprobe run after the command's clean exit: %v", got)
		}
		return
	case r.code == stopRefused && strings.Contains(out.Message, "no gentle stop"):
		t.Logf("no console event could be delivered: %s", out.Message)
	default:
		t.Fatalf("stop: %v", r)
	}
	if sigs := signalsReceived(h.report); len(sigs) != 0 {
		t.Errorf("a refused stop reached the command: %q", sigs)
	}
	wantExit(t, sp(t, "stop", "-kill", "-json", lock), stopStopped, `"signals":["TerminateProcess"]`)
	h.wait(t)
	waitFor(t, "the command to end with its holder", func() bool {
		s, _ := safeprobe.Probe(h.pid)
		return s != safeprobe.Running
	})
}

// TestRunWindowsHolderIsTheParent checks that on Windows the record names
// safeprobe, the parent that holds the lock, with the command's name, and
// that a second run is refused naming it.
func TestRunWindowsHolderIsTheParent(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	h := startHolder(t, lock, nil)
	st, err := safeprobe.Inspect(lock)
	if err != nil {
		t.Fatal(err)
	}
	want := "safeprobe: " + filepath.Base(testExe(t))
	if !st.Held || st.Record.PID != h.cmd.Process.Pid || st.Record.Program != want || st.Record.PID == h.pid {
		t.Errorf("record %+v (held %v); want the parent pid %d, program %q", st.Record, st.Held, h.cmd.Process.Pid, want)
	}
	wantExit(t, sp(t, "run", "-lock", lock, "--", testExe(t), helperRole, "exit", "0"), runLocked, "is held by another process")
}
