package safeprobe

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// What another local user can do to a root process using safeprobe, tried
// with real processes run as nobody.

const lockContentEnv = "SAFEPROBE_LOCK_CONTENT" // lock-hold-raw: the record to write

func init() {
	// lock-hold-raw takes flock on the file at lockPathEnv (creating it),
	// writes lockContentEnv into it as it is, prints "locked", and holds
	// the lock until stdin closes: a holder outside the protocol, whose
	// record says whatever it likes.
	childModes["lock-hold-raw"] = func() {
		f, err := os.OpenFile(os.Getenv(lockPathEnv), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
		if err == nil {
			err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		}
		if err == nil {
			_, err = f.WriteString(os.Getenv(lockContentEnv))
		}
		if err != nil {
			fmt.Printf("error %v\n", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
	}
}

// startNobody starts the test binary as nobody in a child mode.
func startNobody(t *testing.T, mode string, env ...string) *lockChild {
	t.Helper()
	return startChildCommand(t, nobodyCommand(t, mode, env...))
}

// signalWatcher starts a process that reports each SIGUSR1 it gets, by
// holding a lock at path with lockSignalEnv; as nobody if asNobody.
func signalWatcher(t *testing.T, path string, asNobody bool) (*lockChild, Identity) {
	t.Helper()
	start := startLockChild
	if asNobody {
		start = startNobody
	}
	c := start(t, "lock-hold", lockPathEnv+"="+path, lockSignalEnv+"=1")
	c.expect(t, "locked")
	c.expect(t, "signals ready")
	id, err := Lookup(c.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return c, id
}

// wantSignalRefused checks that SignalOwner of path refuses with
// ErrUnsafePath for reason, and that the watcher gets no signal.
func wantSignalRefused(t *testing.T, path, reason string, watcher *lockChild) {
	t.Helper()
	if err := SignalOwner(path, syscall.SIGUSR1); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), reason) {
		t.Errorf("SignalOwner = %v; want ErrUnsafePath, %q", err, reason)
	}
	select {
	case line := <-watcher.lines:
		t.Fatalf("pid %d was signalled: %q", watcher.cmd.Process.Pid, line)
	case <-time.After(200 * time.Millisecond):
	}
}

func recordOf(id Identity) string {
	return string(formatRecord(Record{PID: id.PID, Version: recordVersion, HasIdentity: true, Identity: id}))
}

// TestSignalOwnerRefusesAnotherUsersRecord: nobody holds flock on x.lock
// in a sticky directory, with a record naming root's process by its real
// identity. Root's SignalOwner must not signal it: nobody wrote the file.
func TestSignalOwnerRefusesAnotherUsersRecord(t *testing.T) {
	requireRoot(t)
	victim, vid := signalWatcher(t, filepath.Join(t.TempDir(), "v.lock"), false)
	path := filepath.Join(stickyDir(t), "x.lock")
	attacker := startNobody(t, "lock-hold-raw", lockPathEnv+"="+path, lockContentEnv+"="+recordOf(vid))
	attacker.expect(t, "locked")
	wantSignalRefused(t, path, "owned by uid", victim)
}

// TestSignalOwnerRefusesGroupWritableRecord: root's lock file is writable
// by others (an old file, a Mode of 0666): nobody rewrites its record to
// name root's process, copied field by field from /proc, and holds flock.
// The file's owner and the process's user agree, but nobody wrote the
// record: root's SignalOwner must not signal.
func TestSignalOwnerRefusesGroupWritableRecord(t *testing.T) {
	requireRoot(t)
	victim, vid := signalWatcher(t, filepath.Join(t.TempDir(), "v.lock"), false)
	path := filepath.Join(publicDir(t), "w.lock")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	attacker := startNobody(t, "lock-hold-raw", lockPathEnv+"="+path, lockContentEnv+"="+recordOf(vid))
	attacker.expect(t, "locked")
	wantSignalRefused(t, path, "writable by group or others", victim)
}

// TestSignalOwnerRefusesRecordOfAnotherUsersProcess: a lock file root owns
// and holds, whose record names a process running as nobody, who could
// not have opened the file: the record is not believed.
func TestSignalOwnerRefusesRecordOfAnotherUsersProcess(t *testing.T) {
	requireRoot(t)
	victim, vid := signalWatcher(t, filepath.Join(stickyDir(t), "v.lock"), true)
	path := filepath.Join(t.TempDir(), "x.lock")
	holdRaw(t, path, recordOf(vid))
	wantSignalRefused(t, path, "runs as uid", victim)
}

// TestLockDirRefusesAnotherUsersDirectory: a directory nobody owns, even
// mode 0755, lets nobody remove a held lock file, so that a second
// process takes the same key.
func TestLockDirRefusesAnotherUsersDirectory(t *testing.T) {
	requireRoot(t)
	uid := nobodyIDs(t)
	dir := filepath.Join(t.TempDir(), "locks")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, uid, uid); err != nil {
		t.Fatal(err)
	}
	if _, err := NewLockDir(dir); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "owned by uid") {
		t.Errorf("NewLockDir(directory owned by nobody) = %v; want ErrUnsafePath", err)
	}
	// A sticky directory root owns (like /tmp) is fine.
	if _, err := NewLockDir(stickyDir(t)); err != nil {
		t.Errorf("NewLockDir(sticky, root's) = %v", err)
	}
}

// TestLockDirKeepsTheDirectoryItChecked: once checked, the directory is
// used through the descriptor NewLockDir holds; a symlink put at its path
// afterwards does not send lock files elsewhere.
func TestLockDirKeepsTheDirectoryItChecked(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "locks")
	d, err := NewLockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	checked := filepath.Join(root, "checked")
	elsewhere := filepath.Join(root, "elsewhere")
	if err := os.Rename(dir, checked); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(elsewhere, 0o700)
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	l, err := d.TryAcquire("job", nil)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(d.Path("job"))
	if _, err := os.Lstat(filepath.Join(checked, name)); err != nil {
		t.Errorf("lock file not in the checked directory: %v", err)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("lock file went through the symlink: %v", ents)
	}
	if st, err := d.Inspect("job"); err != nil || !st.Held || st.Record.PID != os.Getpid() {
		t.Errorf("Inspect(job) = %+v, %v; want held by this process", st, err)
	}
	if err := l.Check(); err != nil {
		t.Errorf("Check = %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(checked, name)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Release left the lock file in the checked directory: %v", err)
	}
}

// TestTakeoverMarkerOfAnotherUserIgnored: nobody writes a takeover marker
// with a far expiry beside root's lock in a sticky directory; root's
// holder must not take it as a request (it would leave, and so would every
// later holder), and a request of root's own still counts.
func TestTakeoverMarkerOfAnotherUserIgnored(t *testing.T) {
	requireRoot(t)
	path := filepath.Join(stickyDir(t), "t.lock")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	requester := startNobody(t, "lock-takeover", lockPathEnv+"="+path, lockTTLEnv+"=1h")
	requester.expect(t, "requested")
	if fi, err := os.Lstat(path + takeoverSuffix); err != nil || fi.Sys().(*syscall.Stat_t).Uid == 0 {
		t.Fatalf("nobody's marker not in place: %v", err)
	}
	if ok, who := l.TakeoverRequested(); ok {
		t.Errorf("TakeoverRequested = true (by %v) for nobody's marker", who)
	}
	requester.finish(t)

	os.Remove(path + takeoverSuffix)
	own := startLockChild(t, "lock-takeover", lockPathEnv+"="+path, lockTTLEnv+"=1h")
	own.expect(t, "requested")
	if ok, _ := l.TakeoverRequested(); !ok {
		t.Errorf("TakeoverRequested = false for root's own request")
	}
	own.finish(t)
}

// TestLockDirRemoved: once its directory is removed, a LockDir reports
// that at once (fs.ErrNotExist), rather than retrying and failing with
// an error that names neither.
func TestLockDirRemoved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks")
	d, err := NewLockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := d.TryAcquire("job", nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("TryAcquire in a removed lock directory = %v; want fs.ErrNotExist", err)
	}
}
