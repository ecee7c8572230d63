package safeprobe

import (
	"errors"
	"os"
	"runtime"
	"testing"

	"golang.org/x/sys/windows"
)

// TestWindowsThreadIDIsNotAProcess holds the Windows per-OS functions to
// their contract rows for a thread ID: thread IDs come from the table PIDs
// come from, and OpenProcess refuses one, so probe, lookup and lookupState
// find no process, and signalVerified fails in os.FindProcess before it
// verifies anything.
func TestWindowsThreadIDIsNotAProcess(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := int(windows.GetCurrentThreadId())
	if tid == os.Getpid() {
		t.Fatalf("thread ID %d is this process's ID", tid)
	}
	if s, err := Probe(tid); s != NotFound || err != nil {
		t.Errorf("Probe(tid %d) = %v, %v; want not found", tid, s, err)
	}
	if _, err := Lookup(tid); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Lookup(tid %d) = %v; want os.ErrProcessDone", tid, err)
	}
	if _, s, err := lookupState(tid); s != NotFound || !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("lookupState(tid %d) = %v, %v; want not found, os.ErrProcessDone", tid, s, err)
	}
	verified := 0
	err := signalVerified(tid, os.Kill, func() error { verified++; return errors.New("refused: nothing may be signalled here") })
	if err == nil || verified != 0 {
		t.Errorf("signalVerified(tid %d) = %v after %d verify calls; want os.FindProcess's error before any", tid, err, verified)
	}
}
