//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows

package safeprobe

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// faultyFile fails the owner record's write the way a full disk does (a
// short write, then ENOSPC) or its fsync the way a failing disk does.
type faultyFile struct {
	lockFile
	writeErr, syncErr error
}

func (f *faultyFile) WriteAt(b []byte, off int64) (int, error) {
	if f.writeErr != nil {
		n, _ := f.lockFile.WriteAt(b[:len(b)/2], off)
		return n, f.writeErr
	}
	return f.lockFile.WriteAt(b, off)
}

func (f *faultyFile) Sync() error {
	if f.syncErr != nil {
		return f.syncErr
	}
	return f.lockFile.Sync()
}

// TestLockRecordWriteFaults: when the owner record cannot be written, the
// acquirer does not keep a lock it could not describe: TryAcquire fails
// with the cause and the path, and leaves nothing behind (the file it
// locked, with what was half written, is removed as Release removes it),
// so the next TryAcquire takes the lock.
func TestLockRecordWriteFaults(t *testing.T) {
	for name, fault := range map[string]*faultyFile{
		"disk full": {writeErr: syscall.ENOSPC},
		"fsync":     {syncErr: syscall.EIO},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(lockTestDir(t), "d.pid")
			testHookOpened = func(f lockFile) lockFile {
				fault.lockFile = f
				return fault
			}
			_, err := TryAcquire(path, nil)
			testHookOpened = nil
			cause := fault.writeErr
			if cause == nil {
				cause = fault.syncErr
			}
			if !errors.Is(err, cause) || !strings.Contains(err.Error(), path) || errors.Is(err, ErrLocked) {
				t.Fatalf("TryAcquire with %s = %v; want %v naming %s", name, err, cause, path)
			}
			if st, err := Inspect(path); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("after the failed write Inspect = %+v, %v; want no lock file left", st, err)
			}
			l, err := TryAcquire(path, nil)
			if err != nil {
				t.Fatalf("TryAcquire after the fault: %v", err)
			}
			defer l.Release()
			wantOwnRecord(t, path, l)
		})
	}
}

// TestLockRecordTimesAreInformational: the clock may jump (NTP, a VM
// resumed, a bad RTC after power loss); a record's time never decides who
// holds the lock or whether its holder is alive.
func TestLockRecordTimesAreInformational(t *testing.T) {
	self, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	for _, when := range []time.Time{time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC), time.Unix(0, 0).UTC()} {
		rec := Record{PID: self.PID, Version: recordVersion, HasIdentity: true, Identity: self, Acquired: when}

		held := filepath.Join(lockTestDir(t), "held.pid")
		f := holdRaw(t, held, string(formatRecord(rec)))
		st, err := Inspect(held)
		if err != nil || !st.Held || st.Stale || st.Corrupt || st.State != Running || !st.Record.Acquired.Equal(when) {
			t.Errorf("held record dated %v: Inspect = %+v, %v", when, st, err)
		}
		if _, err := TryAcquire(held, nil); !errors.Is(err, ErrLocked) {
			t.Errorf("held record dated %v: TryAcquire = %v; want ErrLocked", when, err)
		}
		f.Close()

		free := filepath.Join(lockTestDir(t), "free.pid")
		if err := os.WriteFile(free, formatRecord(rec), 0o600); err != nil {
			t.Fatal(err)
		}
		l, err := TryAcquire(free, nil)
		if err != nil {
			t.Fatalf("free file with a record dated %v: %v", when, err)
		}
		if d := time.Since(l.Owner().Acquired); d < -time.Minute || d > time.Minute {
			t.Errorf("new record dated %v, not now", l.Owner().Acquired)
		}
		l.Release()
	}
}

// TestInspectDuringRewrites holds the rule readers rely on: while the
// holder rewrites its record (truncate, then write, as TryAcquire does),
// Inspect never reports a torn record as the truth.
func TestInspectDuringRewrites(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	self, _ := Self()
	full := formatRecord(Record{PID: self.PID, Version: recordVersion, HasIdentity: true, Identity: self})
	f := holdRaw(t, path, string(full))
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			if err := writeRecord(f, full, false); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(200 * time.Microsecond)
		}
	}()
	deadline := time.Now().Add(500 * time.Millisecond)
	n := 0
	for ; time.Now().Before(deadline); n++ {
		st, err := Inspect(path)
		if err != nil || !st.Held || st.Corrupt || st.Record.PID != self.PID || st.State != Running {
			t.Errorf("Inspect %d during rewrites = %+v, %v", n, st, err)
			break
		}
	}
	stop.Store(true)
	<-done
	t.Logf("%d consistent Inspects during rewrites", n)
}

// TestInspectWaitsOutAStalledWriter: a holder descheduled between its
// truncate and its write, or in the middle of the write, for longer than
// a moment (as on a loaded machine): Inspect reports the record it then
// finishes, not the torn one.
func TestInspectWaitsOutAStalledWriter(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	self, _ := Self()
	full := formatRecord(Record{PID: self.PID, Version: recordVersion, HasIdentity: true, Identity: self})
	f := holdRaw(t, path, string(full))
	for _, c := range []struct {
		name  string
		torn  []byte
		stall time.Duration
	}{
		{"after the truncate", nil, 100 * time.Millisecond},
		{"mid-write", full[:len(full)/2], 100 * time.Millisecond},
		{"after the truncate, long", nil, 300 * time.Millisecond},
	} {
		if err := writeRecord(f, c.torn, false); err != nil {
			t.Fatal(err)
		}
		done := make(chan error)
		go func() {
			time.Sleep(c.stall)
			_, err := f.WriteAt(full, 0)
			done <- err
		}()
		st, err := Inspect(path)
		if err != nil || !st.Held || st.Corrupt || st.Record.PID != self.PID || st.State != Running {
			t.Errorf("%s: Inspect while the writer stalls %v = %+v, %v; want the finished record", c.name, c.stall, st, err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
