package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// lockChildHooks runs in a lock-hold child once it holds the lock.
func lockChildHooks(*Lock) {}

// closeWriter lets removeLockFile close the holder's handle of the file a
// faultyFile wraps, as it does for a *winLockFile.
func (f *faultyFile) closeWriter() error { return f.lockFile.(*winLockFile).closeWriter() }

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
	if err := a.tryLock(); err != nil {
		t.Fatal(err)
	}
	if err := writeRecord(a, []byte("1234\n"), false); err != nil {
		t.Fatal(err)
	}
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
	path := filepath.Join(lockTestDir(t), "d.pid")
	sys.createFile = func(p string, access, share, disposition, flags uint32, sd *windows.SECURITY_DESCRIPTOR) (windows.Handle, error) {
		switch {
		case p != path: // the directories above it
		case denied.Load():
			return windows.InvalidHandle, windows.ERROR_ACCESS_DENIED
		case pending.Add(-1) >= 0:
			return windows.InvalidHandle, windows.ERROR_DELETE_PENDING
		}
		return saved.createFile(p, access, share, disposition, flags, sd)
	}
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
	sys.createFile = func(path string, access, share, disposition, flags uint32, sd *windows.SECURITY_DESCRIPTOR) (windows.Handle, error) {
		if access&windows.DELETE != 0 {
			return windows.InvalidHandle, windows.ERROR_SHARING_VIOLATION
		}
		return saved.createFile(path, access, share, disposition, flags, sd)
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
		holdRaw(t, path, fmt.Sprintf("%d\n", child+k))
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
	holdRaw(t, path, fmt.Sprintf("%d\n", exited.Process.Pid))
	if err := SignalOwnerWith(path, os.Kill, unverified); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("SignalOwnerWith(record naming an exited process, AllowUnverified) = %v; want os.ErrProcessDone", err)
	}

	// The rule refuses only what it must: the child itself is signalled.
	path = filepath.Join(lockTestDir(t), "d.pid")
	holdRaw(t, path, fmt.Sprintf("%d\n", child))
	if err := SignalOwnerWith(path, os.Kill, unverified); err != nil {
		t.Fatalf("SignalOwnerWith(record naming the running child, AllowUnverified) = %v", err)
	}
	if err := cmd.Wait(); err == nil {
		t.Error("the child exited cleanly; want killed")
	}
}

// TestWindowsHeldFileIsTheHolders: while the lock is held no one else can
// open the file to write, remove or rename it (the holder's handle shares
// read access only), yet readers and would-be holders still open it. A
// handle that may write the file keeps anyone from taking the lock. Real
// share modes under Wine, which checks them as Windows does.
func TestWindowsHeldFileIsTheHolders(t *testing.T) {
	dir := lockTestDir(t)
	path := filepath.Join(dir, "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	record := readFile(t, path) // os.Open shares read and write, not delete
	for _, access := range []uint32{windows.GENERIC_WRITE, windows.DELETE} {
		h, err := sys.createFile(path, access, shareAll, windows.OPEN_EXISTING, 0, nil)
		if err == nil {
			sys.closeHandle(h)
		}
		if !errors.Is(err, windows.ERROR_SHARING_VIOLATION) {
			t.Errorf("opening the held file with access %#x = %v; want ERROR_SHARING_VIOLATION", access, err)
		}
	}
	if err := os.WriteFile(path, []byte("4\n"), 0o600); err == nil {
		t.Errorf("another writer rewrote the held file's record")
	}
	if err := os.Rename(path, path+".moved"); err == nil {
		t.Errorf("the held file was renamed away")
	}
	if err := os.Remove(path); err == nil {
		t.Errorf("the held file was removed")
	}
	if got := readFile(t, path); got != record {
		t.Errorf("record now %q, was %q", got, record)
	}
	if st, err := Inspect(path); err != nil || !st.Held || st.Record.PID != os.Getpid() {
		t.Errorf("Inspect(held file) = %+v, %v", st, err)
	}
	other, err := openLockFile(path, true, 0)
	if err != nil {
		t.Fatalf("a would-be holder cannot open the held file: %v", err)
	}
	if err := other.tryLock(); !errors.Is(err, errWouldBlock) {
		t.Errorf("a would-be holder's tryLock = %v; want errWouldBlock", err)
	}
	other.Close()
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Release left the file: %v", err)
	}

	// A handle that may write the file, opened before anyone holds it,
	// keeps the lock from being taken, and the file untouched.
	record = fmt.Sprintf("%d\n", os.Getpid()) // running: no wait for a late release
	os.WriteFile(path, []byte(record), 0o600)
	h, err := sys.createFile(path, windows.GENERIC_WRITE, shareAll, windows.OPEN_EXISTING, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if l, err := TryAcquire(path, nil); !errors.Is(err, ErrLocked) {
		if err == nil {
			l.Release()
		}
		t.Errorf("TryAcquire while another handle may write the file = %v; want ErrLocked", err)
	}
	if got := readFile(t, path); got != record {
		t.Errorf("record now %q, was %q", got, record)
	}
	sys.closeHandle(h)
	l, err = TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("TryAcquire once that handle closed: %v", err)
	}
	l.Release()
}

// foreignSID is a SID of no account on this machine: another user.
const foreignSID = "S-1-5-21-1004336348-1177238915-682003330-1001"

// ownFiles makes every file and directory safeprobe opens look owned by
// the SID named, through the OS layer: Wine makes every file the caller's
// (or nobody's), so another user's files are injected.
func ownFiles(t *testing.T, sid string) {
	t.Helper()
	owner, err := windows.StringToSid(sid)
	if err != nil {
		t.Fatal(err)
	}
	saved := sys
	t.Cleanup(func() { sys = saved })
	sys.fileOwner = func(windows.Handle) (*windows.SID, error) { return owner, nil }
}

// TestWindowsOwnFilesTrusted: the files and directories this process
// creates have an owner it trusts. Real security descriptors under Wine.
func TestWindowsOwnFilesTrusted(t *testing.T) {
	dir := lockTestDir(t)
	path := filepath.Join(dir, "d.pid")
	os.WriteFile(path, nil, 0o600)
	for _, p := range []string{dir, path} {
		h, err := sys.createFile(p, windows.READ_CONTROL, shareAll, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, nil)
		if err != nil {
			t.Fatal(err)
		}
		owner, err := sys.fileOwner(h)
		sys.closeHandle(h)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: owner %v", p, owner)
		if err := trustedOwner(ownerOf(owner), "file"); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := NewLockDir(dir); err != nil {
		t.Errorf("NewLockDir(own directory) = %v", err)
	}
}

// runningChild starts a child that runs until the test ends, and returns
// its identity.
func runningChild(t *testing.T) Identity {
	t.Helper()
	cmd, _ := startChild(t, 0)
	id, err := Lookup(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestWindowsForeignOwnerRefused: a lock file, takeover marker or lock
// directory another user owns is refused: that user may have written the
// record (naming any process, which SignalOwner would then kill) or the
// marker. Owners are injected through the OS layer (see ownFiles); the
// processes and files are real.
func TestWindowsForeignOwnerRefused(t *testing.T) {
	victim := runningChild(t)
	dir := lockTestDir(t)
	path := filepath.Join(dir, "d.pid")
	forged := string(formatRecord(Record{PID: victim.PID, Version: recordVersion, HasIdentity: true, Identity: victim}))
	holdRaw(t, path, forged)

	ownFiles(t, foreignSID)
	wantUnsafe(t, path, "owned by "+foreignSID)
	if _, err := Inspect(path); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), foreignSID) {
		t.Errorf("Inspect(another user's file) = %v; want ErrUnsafePath naming the owner", err)
	}
	if err := SignalOwner(path, os.Kill); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("SignalOwner(another user's file) = %v; want ErrUnsafePath", err)
	}
	if s, err := Probe(victim.PID); s != Running {
		t.Fatalf("the process another user's record names was killed: %v, %v", s, err)
	}
	if _, err := NewLockDir(dir); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), `directory C:\ owned by `+foreignSID) {
		t.Errorf("NewLockDir(another user's directory) = %v; want ErrUnsafePath naming the first such directory and its owner", err)
	}
	if got := readFile(t, path); got != forged {
		t.Errorf("another user's file changed: %q", got)
	}
}

// heldLockWithTakeover holds a new lock with a takeover marker beside it,
// written by this process and so owned as the lock file, that the holder
// sees; the caller then injects another owner.
func heldLockWithTakeover(t *testing.T) *Lock {
	t.Helper()
	requester := runningChild(t)
	path := filepath.Join(lockTestDir(t), "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Release() })
	marker := fmt.Sprintf(`{"v":1,"pid":%d,"start":%d,"requested":"2000-01-01T00:00:00Z","expires":"2999-01-01T00:00:00Z"}`+"\n", requester.PID, requester.StartTime)
	if err := os.WriteFile(path+takeoverSuffix, []byte(marker), 0o600); err != nil {
		t.Fatal(err)
	}
	if ok, who := l.TakeoverRequested(); !ok || who.PID != requester.PID {
		t.Fatalf("marker owned as the lock file: TakeoverRequested = %v, %v; want the request seen", ok, who)
	}
	return l
}

// TestWindowsForeignTakeoverIgnored: a takeover marker another user owns
// does not make the holder leave. Owners injected as above.
func TestWindowsForeignTakeoverIgnored(t *testing.T) {
	l := heldLockWithTakeover(t)
	ownFiles(t, foreignSID)
	if ok, who := l.TakeoverRequested(); ok {
		t.Errorf("another user's marker: TakeoverRequested = true, %v; want it ignored", who)
	}
}

// TestWindowsTakeoverOwnerMustMatch: a takeover marker counts only if its
// owner SID is the lock file's, as on Unix: a marker owned by another
// trusted owner (SYSTEM or Administrators while the lock file is this
// user's) is ignored. Owners injected as above.
func TestWindowsTakeoverOwnerMustMatch(t *testing.T) {
	l := heldLockWithTakeover(t)
	other := "S-1-5-18" // SYSTEM, unless that owns the lock file
	if l.f.owner() == fileOwner(other) {
		other = "S-1-5-32-544"
	}
	ownFiles(t, other)
	if err := trustedOwner(fileOwner(other), "marker"); err != nil {
		t.Fatalf("%s not trusted: %v", other, err)
	}
	if ok, who := l.TakeoverRequested(); ok {
		t.Errorf("marker owned by %s, lock file by %s: TakeoverRequested = true, %v; want it ignored", other, l.f.owner(), who)
	}
}

// TestWindowsTrustedOwners: files owned by BUILTIN\Administrators (an
// elevated process's) or SYSTEM are trusted, as root's are on Unix; a
// failing GetSecurityInfo is an error naming the call. Injected owners.
func TestWindowsTrustedOwners(t *testing.T) {
	for _, known := range []windows.WELL_KNOWN_SID_TYPE{windows.WinBuiltinAdministratorsSid, windows.WinLocalSystemSid} {
		sid, err := windows.CreateWellKnownSid(known)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(sid.String(), func(t *testing.T) {
			ownFiles(t, sid.String())
			dir := lockTestDir(t)
			l, err := TryAcquire(filepath.Join(dir, "d.pid"), nil)
			if err != nil {
				t.Fatalf("TryAcquire of a file owned by %v: %v", sid, err)
			}
			l.Release()
			if _, err := NewLockDir(dir); err != nil {
				t.Errorf("NewLockDir of a directory owned by %v: %v", sid, err)
			}
		})
	}
	saved := sys
	defer func() { sys = saved }()
	sys.fileOwner = func(windows.Handle) (*windows.SID, error) { return nil, windows.ERROR_ACCESS_DENIED }
	path := filepath.Join(lockTestDir(t), "d.pid")
	if _, err := TryAcquire(path, nil); !errors.Is(err, windows.ERROR_ACCESS_DENIED) || !strings.Contains(err.Error(), "GetSecurityInfo") {
		t.Errorf("TryAcquire when the owner cannot be read = %v; want an error naming GetSecurityInfo", err)
	}
}

// TestWindowsDeadHolderRecordWaitsOnce: a lock held under a record naming
// a process that is gone (here, a handle of this process holds it) makes
// TryAcquire wait for a late release once, not on every call: a lock still
// held after staleReleaseWait is someone else's. Real processes and locks
// under Wine.
func TestWindowsDeadHolderRecordWaitsOnce(t *testing.T) {
	dead := exitedIdentity(t)
	path := filepath.Join(lockTestDir(t), "d.pid")
	holdRaw(t, path, string(formatRecord(Record{PID: dead.PID, Version: recordVersion, HasIdentity: true, Identity: dead})))
	for i := 0; i < 3; i++ {
		start := time.Now()
		_, err := TryAcquire(path, nil)
		d := time.Since(start)
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("TryAcquire %d = %v; want ErrLocked", i, err)
		}
		switch {
		case i == 0 && d < staleReleaseWait:
			t.Errorf("first TryAcquire returned after %v; want the wait for a late release, %v", d, staleReleaseWait)
		case i > 0 && d > staleReleaseWait/4:
			t.Errorf("TryAcquire %d took %v; the wait for a late release was spent already", i, d)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Acquire(ctx, path, nil); !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrLocked) {
		t.Errorf("Acquire = %v; want its context's end and ErrLocked", err)
	}
	if d := time.Since(start); d > staleReleaseWait/2 {
		t.Errorf("Acquire with a 100 ms context took %v", d)
	}
}

// TestWindowsLockFileDACL: a lock file TryAcquire creates has a protected
// DACL of its own, not its directory's inheritable ACEs (which may let
// other users write it): only its user, SYSTEM and Administrators may
// write, and Everyone may read only if Mode grants others read. The
// descriptor passed to CreateFile is checked through the OS layer, as Wine
// keeps only what Unix mode bits can say; the files are real.
func TestWindowsLockFileDACL(t *testing.T) {
	everyone, err := windows.CreateWellKnownSid(windows.WinWorldSid)
	if err != nil {
		t.Fatal(err)
	}
	var created *windows.SECURITY_DESCRIPTOR
	saved := sys
	defer func() { sys = saved }()
	sys.createFile = func(path string, access, share, disposition, flags uint32, sd *windows.SECURITY_DESCRIPTOR) (windows.Handle, error) {
		if disposition == windows.OPEN_ALWAYS {
			created = sd
		}
		return saved.createFile(path, access, share, disposition, flags, sd)
	}
	for _, c := range []struct {
		mode     os.FileMode
		everyone bool
	}{{0, false}, {0o600, false}, {0o640, false}, {0o644, true}} {
		t.Run(fmt.Sprintf("mode%#o", c.mode), func(t *testing.T) {
			created = nil
			path := filepath.Join(lockTestDir(t), "d.pid")
			l, err := TryAcquire(path, &LockOptions{Mode: c.mode})
			if err != nil {
				t.Fatal(err)
			}
			l.Release()
			if created == nil {
				t.Fatal("TryAcquire created the file without a security descriptor")
			}
			t.Logf("%v", created)
			control, _, err := created.Control()
			if err != nil || control&windows.SE_DACL_PROTECTED == 0 {
				t.Errorf("DACL not protected from inheritance (control %#x, %v)", control, err)
			}
			dacl, _, err := created.DACL()
			if err != nil {
				t.Fatal(err)
			}
			readers := false
			for i := uint32(0); i < uint32(dacl.AceCount); i++ {
				var ace *windows.ACCESS_ALLOWED_ACE
				if err := windows.GetAce(dacl, i, &ace); err != nil {
					t.Fatal(err)
				}
				sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
				switch {
				case trustedOwner(ownerOf(sid), "ACE") == nil:
				case sid.Equals(everyone) && ace.Mask == windows.FILE_GENERIC_READ:
					readers = true
				default:
					t.Errorf("ACE %d grants %v access %#x", i, sid, ace.Mask)
				}
			}
			if readers != c.everyone {
				t.Errorf("Everyone may read: %v; want %v", readers, c.everyone)
			}
		})
	}
}

// openedHandles wraps the OS layer's CreateFile and CloseHandle, for the
// rest of the test, to remember the path and flags each open handle was
// opened with, running onOpen (if set) with the path before each
// CreateFile. It returns the layer it wrapped, which the caller's own
// substitutions call on, and the lookup.
func openedHandles(t *testing.T, onOpen func(path string)) (saved windowsOS, opened func(windows.Handle) (path string, flags uint32)) {
	t.Helper()
	saved = sys
	t.Cleanup(func() { sys = saved })
	type open struct {
		path  string
		flags uint32
	}
	var mu sync.Mutex
	handles := map[windows.Handle]open{}
	sys.createFile = func(path string, access, share, disposition, flags uint32, sd *windows.SECURITY_DESCRIPTOR) (windows.Handle, error) {
		if onOpen != nil {
			onOpen(path)
		}
		h, err := saved.createFile(path, access, share, disposition, flags, sd)
		if err == nil {
			mu.Lock()
			handles[h] = open{path, flags}
			mu.Unlock()
		}
		return h, err
	}
	sys.closeHandle = func(h windows.Handle) error {
		mu.Lock()
		delete(handles, h)
		mu.Unlock()
		return saved.closeHandle(h)
	}
	return saved, func(h windows.Handle) (string, uint32) {
		mu.Lock()
		defer mu.Unlock()
		o := handles[h]
		return o.path, o.flags
	}
}

// injectDACLs makes the DACL of each file or directory safeprobe opens by
// one of the paths given the one its SDDL says, through the OS layer: Wine
// keeps only what Unix mode bits say of a DACL. Other paths keep theirs.
func injectDACLs(t *testing.T, sddl map[string]string) {
	t.Helper()
	saved, opened := openedHandles(t, nil)
	sys.fileDACL = func(h windows.Handle) (*windows.SECURITY_DESCRIPTOR, error) {
		path, _ := opened(h)
		s, ok := sddl[path]
		switch {
		case !ok:
			return saved.fileDACL(h)
		case s == nullDACL:
			sd, err := windows.NewSecurityDescriptor()
			if err == nil {
				err = sd.SetDACL(nil, true, false)
			}
			return sd, err
		}
		return windows.SecurityDescriptorFromString(s)
	}
}

// nullDACL, for injectDACLs, is a NULL DACL (present, with no ACL at all:
// everyone may do anything), which Wine's SDDL parser does not make.
const nullDACL = "NULL"

// TestWindowsFileDACLRefused: a lock file whose owner is trusted
// (Administrators, say) but whose DACL lets another principal write it
// may say what that principal wrote: TryAcquire, Inspect and SignalOwner
// refuse it, naming the principal. An ACE that only passes down to
// children, and one for a trusted principal, do not count; a NULL DACL
// lets everyone write. DACLs injected through the OS layer.
func TestWindowsFileDACLRefused(t *testing.T) {
	victim := runningChild(t)
	forged := string(formatRecord(Record{PID: victim.PID, Version: recordVersion, HasIdentity: true, Identity: victim}))
	for _, c := range []struct {
		name, sddl, who string // who: the principal named; "" if accepted
	}{
		{"Users may write", "D:(A;;FA;;;BA)(A;;0x12019f;;;BU)", "S-1-5-32-545"},
		{"Authenticated Users may delete", "D:(A;;FA;;;SY)(A;;0x110000;;;AU)", "S-1-5-11"},
		{"Everyone may change the DACL", "D:(A;;FA;;;SY)(A;;WD;;;WD)", "S-1-1-0"},
		{"NULL DACL", nullDACL, "Everyone (a NULL DACL)"},
		{"inherit-only write", "D:(A;;FA;;;SY)(A;OICIIO;FA;;;BU)", ""},
		{"trusted only", "D:P(A;;FA;;;SY)(A;;FA;;;BA)", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(lockTestDir(t), "d.pid")
			if err := os.WriteFile(path, []byte(forged), 0o600); err != nil {
				t.Fatal(err)
			}
			injectDACLs(t, map[string]string{path: c.sddl})
			l, err := TryAcquire(path, nil)
			if c.who == "" {
				if err != nil {
					t.Fatalf("TryAcquire = %v; want the lock", err)
				}
				l.Release()
				return
			}
			if err == nil {
				l.Release()
			}
			if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), c.who) {
				t.Errorf("TryAcquire = %v; want ErrUnsafePath naming %s", err, c.who)
			}
			if _, err := Inspect(path); !errors.Is(err, ErrUnsafePath) {
				t.Errorf("Inspect = %v; want ErrUnsafePath", err)
			}
			if err := SignalOwner(path, os.Kill); !errors.Is(err, ErrUnsafePath) {
				t.Errorf("SignalOwner = %v; want ErrUnsafePath", err)
			}
		})
	}
	if s, err := Probe(victim.PID); s != Running {
		t.Fatalf("the process the forged records name was killed: %v, %v", s, err)
	}
}

// TestWindowsDirectoryDACLRefused: a lock directory, or a directory above a
// lock file, whose DACL lets another principal remove or rename what it
// holds, or itself, or change the DACL, is refused, naming it and the
// principal; one that lets others only add entries (C:\'s Authenticated
// Users) is fine, and so is DELETE on a volume's root, which cannot be
// removed or renamed. DACLs injected through the OS layer.
func TestWindowsDirectoryDACLRefused(t *testing.T) {
	root := lockTestDir(t)
	dir := filepath.Join(root, "locks")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	vol := filepath.VolumeName(root) + `\`
	for _, c := range []struct {
		name string
		sddl map[string]string
		who  string // "" if accepted
	}{
		{"lock dir: Authenticated Users may modify", map[string]string{dir: "D:(A;;FA;;;SY)(A;OICI;0x1301bf;;;AU)"}, "S-1-5-11"},
		{"lock dir: Users may remove entries", map[string]string{dir: "D:(A;;FA;;;SY)(A;;0x40;;;BU)"}, "S-1-5-32-545"},
		{"lock dir: Users may add entries", map[string]string{dir: "D:(A;;FA;;;SY)(A;;0x6;;;BU)"}, ""},
		{"parent: Everyone may remove entries", map[string]string{root: "D:(A;;FA;;;SY)(A;OICI;0x1301ff;;;WD)"}, "S-1-1-0"},
		{"volume root: Authenticated Users may modify", map[string]string{vol: "D:(A;;FA;;;SY)(A;OICI;0x1301bf;;;AU)"}, ""},
		{"volume root: Users may remove entries", map[string]string{vol: "D:(A;;FA;;;SY)(A;;0x40;;;BU)"}, "S-1-5-32-545"},
	} {
		t.Run(c.name, func(t *testing.T) {
			injectDACLs(t, c.sddl)
			d, err := NewLockDir(dir)
			l, lerr := TryAcquire(filepath.Join(dir, "d.pid"), nil)
			if c.who == "" {
				if err != nil || lerr != nil {
					t.Fatalf("NewLockDir = %v, TryAcquire = %v; want both", err, lerr)
				}
				d.Close()
				l.Release()
				return
			}
			if err == nil {
				d.Close()
			}
			if lerr == nil {
				l.Release()
			}
			for what, err := range map[string]error{"NewLockDir": err, "TryAcquire": lerr} {
				if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), c.who) || !strings.Contains(err.Error(), "directory ") {
					t.Errorf("%s = %v; want ErrUnsafePath naming the directory and %s", what, err, c.who)
				}
			}
		})
	}
}

// TestWindowsCreatedSecurity: a takeover marker and a lock directory this
// package creates get a protected DACL of their own (this user, SYSTEM,
// Administrators), not the inheritable ACEs of their directory, which may
// let others rewrite a marker (whose owner alone is checked) or empty the
// directory. The descriptors are checked through the OS layer; the files
// are real.
func TestWindowsCreatedSecurity(t *testing.T) {
	saved := sys
	defer func() { sys = saved }()
	created := map[string]*windows.SECURITY_DESCRIPTOR{}
	sys.createFile = func(path string, access, share, disposition, flags uint32, sd *windows.SECURITY_DESCRIPTOR) (windows.Handle, error) {
		if disposition == windows.CREATE_NEW {
			created[path] = sd
		}
		return saved.createFile(path, access, share, disposition, flags, sd)
	}
	sys.createDirectory = func(path string, sd *windows.SECURITY_DESCRIPTOR) error {
		created[path] = sd
		return saved.createDirectory(path, sd)
	}
	root := lockTestDir(t)
	if err := RequestTakeover(filepath.Join(root, "d.pid"), time.Hour); err != nil {
		t.Fatal(err)
	}
	d, err := NewLockDir(filepath.Join(root, "locks"))
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if len(created) != 2 {
		t.Fatalf("created %v; want the marker (its temporary name) and the directory, through CreateFile and CreateDirectory", created)
	}
	for path, sd := range created {
		if sd == nil {
			t.Errorf("%s created without a security descriptor: it inherits its directory's ACEs", path)
			continue
		}
		control, _, err := sd.Control()
		if err != nil || control&windows.SE_DACL_PROTECTED == 0 {
			t.Errorf("%s: DACL not protected from inheritance (control %#x, %v)", path, control, err)
		}
		if who, rights, err := untrustedGrant(sd, openFileRights|changeDirRights); err != nil || who != "" {
			t.Errorf("%s: %v grants %s access %#x", path, sd, who, rights)
		}
	}
}

// TestWindowsStaleWaitHonoursContext: Acquire on a lock held under a
// record whose holder is gone waits for the late release (up to
// staleReleaseWait) only as long as its context lasts. Real processes and
// locks under Wine.
func TestWindowsStaleWaitHonoursContext(t *testing.T) {
	dead := exitedIdentity(t)
	path := filepath.Join(lockTestDir(t), "d.pid")
	holdRaw(t, path, string(formatRecord(Record{PID: dead.PID, Version: recordVersion, HasIdentity: true, Identity: dead})))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Acquire(ctx, path, nil)
	if d := time.Since(start); d > staleReleaseWait/2 {
		t.Errorf("Acquire with a 100 ms context took %v: it waited out the late release", d)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrLocked) {
		t.Errorf("Acquire = %v; want its context's end and ErrLocked", err)
	}
}

// TestWindowsSignalOwnerNeedsAFileOthersCannotOpen: nothing on Windows
// says which process holds a byte-range lock, and anyone who may open the
// file may lock it. So SignalOwner believes a lock file's record only if
// no principal but this user, SYSTEM and Administrators may open it: a
// file made with Mode 0644 (Everyone may read) is refused, and the process
// its record names is not killed, here where this process, not it, holds
// the lock. Real DACLs (Wine keeps Everyone's read) and processes.
func TestWindowsSignalOwnerNeedsAFileOthersCannotOpen(t *testing.T) {
	victim := runningChild(t)
	path := filepath.Join(lockTestDir(t), "d.pid")
	f, err := openLockFile(path, true, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.tryLock(); err != nil {
		t.Fatal(err)
	}
	defer f.unlock()
	if err := writeRecord(f, formatRecord(Record{PID: victim.PID, Version: recordVersion, HasIdentity: true, Identity: victim}), false); err != nil {
		t.Fatal(err)
	}
	if err := SignalOwner(path, os.Kill); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "S-1-1-0") {
		t.Errorf("SignalOwner(a file Everyone may read) = %v; want ErrUnsafePath naming Everyone", err)
	}
	if s, err := Probe(victim.PID); s != Running {
		t.Fatalf("the process the record names was killed: %v, %v", s, err)
	}
}

// TestWindowsOpenWithoutShareDeleteDoesNotBlockHolder: a reader that opens
// a lock file as os.Open does (sharing read and write, not delete) before
// anyone holds it, and keeps it open, does not stop TryAcquire; Release
// then cannot remove the file, and the next TryAcquire still takes it.
// Real share modes under Wine.
func TestWindowsOpenWithoutShareDeleteDoesNotBlockHolder(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	if err := os.WriteFile(path, []byte("4\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := sys.createFile(path, windows.GENERIC_READ, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, windows.OPEN_EXISTING, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sys.closeHandle(h)
	for i := 0; i < 3; i++ {
		l, err := TryAcquire(path, nil)
		if err != nil {
			t.Fatalf("TryAcquire %d with a reader that does not share delete: %v", i, err)
		}
		wantOwnRecord(t, path, l)
		if err := l.Release(); err != nil {
			t.Fatalf("Release %d: %v", i, err)
		}
	}
}
