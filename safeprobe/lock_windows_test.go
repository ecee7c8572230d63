package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// lockChildHooks runs in a lock-hold child once it holds the lock.
func lockChildHooks(*Lock) {}

// fakeLockOS wraps the real lock layer to give Windows' lock semantics
// exactly, whatever the Wine under the tests emulates: byte-range locks
// are mandatory (another handle's read of a range under an exclusive lock,
// and its write of a range under any lock, fail with ERROR_LOCK_VIOLATION),
// and a closed handle's locks may outlive it by linger, as a dead
// process's do until Windows gets round to releasing them. Files are real.
type fakeLockOS struct {
	real   windowsOS
	linger time.Duration

	mu        sync.Mutex
	locks     map[windows.Handle][]fakeRange
	keys      map[windows.Handle]fileKey
	lingering []fakeRange
}

type fakeRange struct {
	key       fileKey
	off       uint64
	n         uint64
	exclusive bool
	until     time.Time // for a lingering lock
}

func (r fakeRange) overlaps(key fileKey, off, n uint64) bool {
	return r.key == key && r.off < off+n && off < r.off+r.n
}

// install makes the fake the lock layer for the rest of the test.
func (f *fakeLockOS) install(t *testing.T) {
	t.Helper()
	f.real = sys
	f.locks = map[windows.Handle][]fakeRange{}
	f.keys = map[windows.Handle]fileKey{}
	fake := f.real
	fake.lockFileEx = f.lockFileEx
	fake.unlockFileEx = f.unlockFileEx
	fake.readAt = f.readAt
	fake.writeAt = f.writeAt
	fake.closeHandle = f.closeHandle
	sys = fake
	t.Cleanup(func() { sys = f.real })
}

func (f *fakeLockOS) key(h windows.Handle) fileKey {
	k, ok := f.keys[h]
	if !ok {
		fi, err := f.real.fileInfo(h)
		if err != nil {
			panic(err)
		}
		k = fileKey{fi.VolumeSerialNumber, fi.FileIndexHigh, fi.FileIndexLow}
		f.keys[h] = k
	}
	return k
}

// conflict reports whether a lock other than h's covers [off, off+n) in a
// way that matters: any lock when all is set, an exclusive one otherwise.
func (f *fakeLockOS) conflict(h windows.Handle, off, n uint64, all bool) bool {
	k := f.key(h)
	now := time.Now()
	for _, r := range f.lingering {
		if now.Before(r.until) && r.overlaps(k, off, n) && (all || r.exclusive) {
			return true
		}
	}
	for other, rs := range f.locks {
		if other == h {
			continue
		}
		for _, r := range rs {
			if r.overlaps(k, off, n) && (all || r.exclusive) {
				return true
			}
		}
	}
	return false
}

func (f *fakeLockOS) lockFileEx(h windows.Handle, flags uint32, off uint64, n uint32) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	exclusive := flags&windows.LOCKFILE_EXCLUSIVE_LOCK != 0
	if flags&windows.LOCKFILE_FAIL_IMMEDIATELY == 0 {
		panic("the lock must never block")
	}
	if f.conflict(h, off, uint64(n), exclusive) {
		return windows.ERROR_LOCK_VIOLATION
	}
	for _, r := range f.locks[h] { // a handle's own exclusive lock conflicts too
		if r.overlaps(f.key(h), off, uint64(n)) && (exclusive || r.exclusive) {
			return windows.ERROR_LOCK_VIOLATION
		}
	}
	f.locks[h] = append(f.locks[h], fakeRange{key: f.key(h), off: off, n: uint64(n), exclusive: exclusive})
	return nil
}

func (f *fakeLockOS) unlockFileEx(h windows.Handle, off uint64, n uint32) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	rs := f.locks[h]
	for i, r := range rs {
		if r.off == off && r.n == uint64(n) {
			f.locks[h] = append(rs[:i], rs[i+1:]...)
			return nil
		}
	}
	return windows.ERROR_NOT_LOCKED
}

func (f *fakeLockOS) readAt(h windows.Handle, b []byte, off int64) (int, error) {
	f.mu.Lock()
	bad := f.conflict(h, uint64(off), uint64(len(b)), false)
	f.mu.Unlock()
	if bad {
		return 0, windows.ERROR_LOCK_VIOLATION
	}
	return f.real.readAt(h, b, off)
}

func (f *fakeLockOS) writeAt(h windows.Handle, b []byte, off int64) (int, error) {
	f.mu.Lock()
	bad := f.conflict(h, uint64(off), uint64(len(b)), true)
	f.mu.Unlock()
	if bad {
		return 0, windows.ERROR_LOCK_VIOLATION
	}
	return f.real.writeAt(h, b, off)
}

func (f *fakeLockOS) closeHandle(h windows.Handle) error {
	f.mu.Lock()
	for _, r := range f.locks[h] {
		if f.linger > 0 {
			r.until = time.Now().Add(f.linger)
			f.lingering = append(f.lingering, r)
		}
	}
	delete(f.locks, h)
	delete(f.keys, h)
	f.mu.Unlock()
	return f.real.closeHandle(h)
}

// TestWindowsRecordReadableWhileLocked: the lock is on a byte past the
// record, so under mandatory locking others still read the record; a lock
// on byte 0 would have hidden it.
func TestWindowsRecordReadableWhileLocked(t *testing.T) {
	f := &fakeLockOS{}
	f.install(t)
	path := filepath.Join(lockTestDir(t), "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	st, err := Inspect(path)
	if err != nil || !st.Held || st.Corrupt || st.Record.PID != os.Getpid() {
		t.Fatalf("Inspect under a mandatory lock = %+v, %v", st, err)
	}
	if _, err := TryAcquire(path, nil); !errors.Is(err, ErrLocked) {
		t.Errorf("second TryAcquire = %v, want ErrLocked", err)
	}

	// The premise: a lock on byte 0 makes the record unreadable.
	path0 := filepath.Join(lockTestDir(t), "zero.pid")
	a, err := openLockFile(path0, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	writeRecord(a, []byte("1234\n"), false)
	if err := sys.lockFileEx(a.(*winLockFile).h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1); err != nil {
		t.Fatal(err)
	}
	b, err := openLockFile(path0, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.ReadAt(make([]byte, 5), 0); !errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		t.Errorf("reading under another handle's lock on byte 0 = %v, want ERROR_LOCK_VIOLATION", err)
	}
}

// TestWindowsStaleLockReleasedLate: a dead holder's lock may outlive it for
// a while; TryAcquire keeps trying (up to staleReleaseWait) when the
// record's holder is gone, and fails at once when it is running.
func TestWindowsStaleLockReleasedLate(t *testing.T) {
	// Longer than maxReopen short retries last, shorter than staleReleaseWait.
	f := &fakeLockOS{linger: 1500 * time.Millisecond}
	f.install(t)
	dead := exitedIdentity(t)
	self, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		holder Identity
		wantOK bool
	}{{"dead holder", dead, true}, {"running holder", self, false}} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(lockTestDir(t), "d.pid")
			h, err := openLockFile(path, true, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.tryLock(); err != nil {
				t.Fatal(err)
			}
			writeRecord(h, formatRecord(Record{PID: c.holder.PID, Version: 1, HasIdentity: true, Identity: c.holder}), false)
			h.Close() // the holder is gone; its lock is not, yet
			start := time.Now()
			l, err := TryAcquire(path, nil)
			d := time.Since(start)
			if c.wantOK {
				if err != nil {
					t.Fatalf("TryAcquire after the holder died = %v (after %v)", err, d)
				}
				l.Release()
				if d < 1400*time.Millisecond || d > staleReleaseWait {
					t.Errorf("TryAcquire took %v; want the lingering lock's 1.5 s", d)
				}
				return
			}
			if !errors.Is(err, ErrLocked) || d > 250*time.Millisecond {
				t.Errorf("TryAcquire with a running holder = %v after %v; want ErrLocked at once", err, d)
			}
		})
	}
}

// TestWindowsLockRefusals: handles that are not regular single-link disk
// files are refused, through the layer (Wine cannot make them all).
func TestWindowsLockRefusals(t *testing.T) {
	for _, c := range []struct {
		name   string
		fake   func(*windowsOS)
		reason string
	}{
		{"pipe", func(o *windowsOS) {
			o.fileType = func(windows.Handle) (uint32, error) { return windows.FILE_TYPE_PIPE, nil }
		}, "not a disk file"},
		{"reparse point", func(o *windowsOS) {
			real := o.fileInfo
			o.fileInfo = func(h windows.Handle) (windows.ByHandleFileInformation, error) {
				fi, err := real(h)
				fi.FileAttributes |= windows.FILE_ATTRIBUTE_REPARSE_POINT
				return fi, err
			}
		}, "symbolic link"},
		{"hard links", func(o *windowsOS) {
			real := o.fileInfo
			o.fileInfo = func(h windows.Handle) (windows.ByHandleFileInformation, error) {
				fi, err := real(h)
				fi.NumberOfLinks = 2
				return fi, err
			}
		}, "hard links"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(lockTestDir(t), "d.pid")
			os.WriteFile(path, []byte("1234\n"), 0o600)
			saved := sys
			defer func() { sys = saved }()
			c.fake(&sys)
			wantUnsafe(t, path, c.reason)
		})
	}
}

// TestWindowsDeletePending: a file whose removal is pending cannot be
// opened until its last handle closes; openLockFile waits a little for
// that, then reports ErrLocked so Acquire waits on. A real access denial
// is reported at once.
func TestWindowsDeletePending(t *testing.T) {
	saved := sys
	defer func() { sys = saved }()
	var pending atomic.Int64
	var denied atomic.Bool
	sys.createFile = func(path string, access, share, disposition, flags uint32) (windows.Handle, error) {
		switch {
		case denied.Load():
			return windows.InvalidHandle, windows.ERROR_ACCESS_DENIED
		case pending.Add(-1) >= 0:
			return windows.InvalidHandle, windows.ERROR_DELETE_PENDING
		}
		return saved.createFile(path, access, share, disposition, flags)
	}
	path := filepath.Join(lockTestDir(t), "d.pid")
	pending.Store(3)
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("TryAcquire past a short pending delete: %v", err)
	}
	l.Release()

	pending.Store(1 << 40)
	start := time.Now()
	if _, err := TryAcquire(path, nil); !errors.Is(err, ErrLocked) || !errors.Is(err, windows.ERROR_DELETE_PENDING) {
		t.Errorf("TryAcquire during a long pending delete = %v, want ErrLocked", err)
	}
	if d := time.Since(start); d < deletePendingWait || d > 10*deletePendingWait {
		t.Errorf("TryAcquire gave up after %v, want %v", d, deletePendingWait)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	go func() { time.Sleep(300 * time.Millisecond); pending.Store(0) }()
	l, err = Acquire(ctx, path, nil)
	if err != nil {
		t.Fatalf("Acquire across a pending delete: %v", err)
	}
	l.Release()

	pending.Store(0)
	denied.Store(true)
	start = time.Now()
	if _, err := TryAcquire(path, nil); errors.Is(err, ErrLocked) || !errors.Is(err, fs.ErrPermission) || time.Since(start) > deletePendingWait {
		t.Errorf("TryAcquire with access denied = %v after %v; want fs.ErrPermission at once", err, time.Since(start))
	}
}

// TestWindowsReleaseSharingViolation: a reader that opened the file
// without sharing delete access stops Release from removing it; Release
// still succeeds and unlocks, and the file is left.
func TestWindowsReleaseSharingViolation(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	saved := sys
	defer func() { sys = saved }()
	sys.createFile = func(path string, access, share, disposition, flags uint32) (windows.Handle, error) {
		if access&windows.DELETE != 0 {
			return windows.InvalidHandle, windows.ERROR_SHARING_VIOLATION
		}
		return saved.createFile(path, access, share, disposition, flags)
	}
	if err := l.Release(); err != nil {
		t.Fatalf("Release = %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("file not left: %v", err)
	}
	l2, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("lock not released: %v", err)
	}
	l2.Release()
}

func TestWindowsSignalOwnerOnlyKill(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	if err := SignalOwner(path, os.Interrupt); !errors.Is(err, ErrUnsupported) {
		t.Errorf("SignalOwner(os.Interrupt) = %v, want ErrUnsupported", err)
	}
}

// TestWindowsSignalOwnerKill: os.Kill reaches a verified holder.
func TestWindowsSignalOwnerKill(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path)
	holder.expect(t, "locked")
	if err := SignalOwner(path, os.Kill); err != nil {
		t.Fatal(err)
	}
	if err := holder.cmd.Wait(); err == nil {
		t.Error("the holder exited cleanly; want killed")
	}
}

// holdWithRecord holds the lock at path on a file of its own, as another
// process would, with rec as the record, until the test ends.
func holdWithRecord(t *testing.T, path string, rec []byte) {
	t.Helper()
	f, err := openLockFile(path, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := f.tryLock(); err != nil {
		t.Fatal(err)
	}
	if err := writeRecord(f, rec, false); err != nil {
		t.Fatal(err)
	}
}

// TestWindowsSignalUnverifiedNeedsRunningProcess: AllowUnverified waives
// the identity check, not the PID's: a bare record naming pid+1..pid+3
// (which OpenProcess, and so os.FindProcess, opens as process pid) or an
// exited process is refused, and the process is not killed. Real processes
// under Wine, which aliases PIDs as Windows does.
func TestWindowsSignalUnverifiedNeedsRunningProcess(t *testing.T) {
	unverified := &SignalOptions{AllowUnverified: true}
	cmd, _ := startChild(t, 0)
	child := cmd.Process.Pid
	if child%4 != 0 {
		t.Skipf("child pid %d is not a multiple of 4", child)
	}
	for k := 1; k <= 3; k++ {
		path := filepath.Join(lockTestDir(t), "d.pid")
		holdWithRecord(t, path, fmt.Appendf(nil, "%d\n", child+k))
		err := SignalOwnerWith(path, os.Kill, unverified)
		if !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("SignalOwnerWith(record naming child+%d, AllowUnverified) = %v; want os.ErrProcessDone", k, err)
		}
		if s, err := Probe(child); s != Running {
			t.Fatalf("the child was killed through its alias child+%d: Probe = %v, %v", k, s, err)
		}
	}

	exited, stdin := startChild(t, 0)
	stdin.Close()
	if s := waitExited(t, exited.Process.Pid); s != NotFound {
		t.Fatalf("child did not exit: %v", s)
	}
	// Not waited: the process object lives on, and os.FindProcess opens it.
	path := filepath.Join(lockTestDir(t), "d.pid")
	holdWithRecord(t, path, fmt.Appendf(nil, "%d\n", exited.Process.Pid))
	if err := SignalOwnerWith(path, os.Kill, unverified); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("SignalOwnerWith(record naming an exited process, AllowUnverified) = %v; want os.ErrProcessDone", err)
	}

	// The rule refuses only what it must: the child itself is signalled.
	path = filepath.Join(lockTestDir(t), "d.pid")
	holdWithRecord(t, path, fmt.Appendf(nil, "%d\n", child))
	if err := SignalOwnerWith(path, os.Kill, unverified); err != nil {
		t.Fatalf("SignalOwnerWith(record naming the running child, AllowUnverified) = %v", err)
	}
	if err := cmd.Wait(); err == nil {
		t.Error("the child exited cleanly; want killed")
	}
}
