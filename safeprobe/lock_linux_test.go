package safeprobe

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLockNotInheritedByChildren: a holder starts a child, then is killed;
// the child runs on, and the lock is free, because the child never got the
// lock file's descriptor (O_CLOEXEC). The test process adopts the orphaned
// child (PR_SET_CHILD_SUBREAPER) so it can reap it at the end.
func TestLockNotInheritedByChildren(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skip("PR_SET_CHILD_SUBREAPER:", err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	path := filepath.Join(lockTestDir(t), "d.pid")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path, lockSpawnEnv+"=1")
	holder.expect(t, "locked")
	child, err := strconv.Atoi(holder.expect(t, "spawned"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(child, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(child, &ws, 0, nil)
	})
	holder.kill(t)
	if s, err := Probe(child); s != Running {
		t.Fatalf("the holder's child is %v (%v); the test needs it running", s, err)
	}
	st, err := Inspect(path)
	if err != nil || st.Held || !st.Stale || st.State != NotFound {
		t.Errorf("Inspect after the holder died = %+v, %v; want free, stale, holder not found", st, err)
	}
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("TryAcquire while the dead holder's child runs: %v", err)
	}
	wantOwnRecord(t, path, l)
	l.Release()
}

// TestLockTableNamesTheFile: on this machine /proc/locks is read, and
// shows a file free only while no one holds it: held, its numbers are in
// the table (and the probe decides); released, they are not.
func TestLockTableNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := openLockFile(path, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd := f.(*unixLockFile).fd
	free, err := lockTableFree(context.Background(), fd)
	if err != nil {
		t.Fatal(err)
	}
	if !free {
		t.Skip("/proc/locks not usable here (another PID namespace, no statx STATX_MNT_ID, or a table past its budget)")
	}
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path)
	holder.expect(t, "locked")
	if free, _ := lockTableFree(context.Background(), fd); free {
		t.Errorf("/proc/locks: the held lock reads as free")
	}
	holder.finish(t)
	if free, err := lockTableFree(context.Background(), fd); !free || err != nil {
		t.Errorf("/proc/locks: the released lock reads as %v, %v; want free", free, err)
	}
}

func TestFlockHeld(t *testing.T) {
	const locks = `1: POSIX  ADVISORY  WRITE 700 fe:00:42 0 EOF
2: FLOCK  ADVISORY  READ 701 fe:00:43 0 EOF
3: FLOCK  ADVISORY  WRITE 702 fe:00:44 0 EOF
3: -> FLOCK  ADVISORY  WRITE 703 fe:00:45 0 EOF
4: OFDLCK ADVISORY  WRITE -1 00:1f:46 0 EOF
5: FLOCK  ADVISORY  WRITE 704 103:0a:47 0 EOF
`
	for _, c := range []struct {
		major, minor uint32
		ino          uint64
		want         bool
	}{
		{254, 0, 44, true},  // an exclusive flock
		{254, 0, 42, false}, // a POSIX lock
		{254, 0, 43, true},  // a shared flock: it stops TryAcquire too
		{254, 0, 45, false}, // a waiter
		{0, 31, 46, false},  // an OFD lock
		{259, 10, 47, true}, // hex device numbers
		{254, 1, 44, false}, // another device
		{254, 0, 4, false},  // another inode, a prefix of one listed
	} {
		if got := flockHeld([]byte(locks), c.major, c.minor, c.ino); got != c.want {
			t.Errorf("flockHeld(%d:%d:%d) = %v, want %v", c.major, c.minor, c.ino, got, c.want)
		}
	}
}

func TestMountDevice(t *testing.T) {
	const mountinfo = `22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
270 27 0:55 /sub /srv rw - btrfs /dev/vdb rw
`
	for _, c := range []struct {
		id           uint64
		major, minor uint32
		ok           bool
	}{{27, 254, 0, true}, {270, 0, 55, true}, {2, 0, 0, false}, {7, 0, 0, false}} {
		major, minor, ok := mountDevice([]byte(mountinfo), c.id)
		if major != c.major || minor != c.minor || ok != c.ok {
			t.Errorf("mountDevice(%d) = %d:%d %v, want %d:%d %v", c.id, major, minor, ok, c.major, c.minor, c.ok)
		}
	}
}

func TestParseStatusUID(t *testing.T) {
	status := "Name:\tx\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t5\nNgid:\t0\nPid:\t5\nPPid:\t1\nTracerPid:\t0\nUid:\t1000\t65534\t65534\t65534\nGid:\t0\t0\t0\t0\n"
	if uid, err := parseStatusUID([]byte(status)); err != nil || uid != 65534 {
		t.Errorf("parseStatusUID = %d, %v; want the effective uid 65534", uid, err)
	}
	for _, bad := range []string{"", "Name:\tx\n", "Uid:\t1000\n", "Uid:\t1000\tx\t0\t0\n"} {
		if _, err := parseStatusUID([]byte(bad)); !errors.Is(err, errProcFormat) {
			t.Errorf("parseStatusUID(%q) = %v, want errProcFormat", bad, err)
		}
	}
}

// FuzzProcLocks: the readers of /proc/locks, /proc/self/mountinfo and
// /proc/<pid>/status never panic, and name a holder or a mount only from
// a line that says so.
func FuzzProcLocks(f *testing.F) {
	f.Add([]byte("1: FLOCK  ADVISORY  WRITE 8153 fe:00:9977957 0 EOF\n"), uint32(254), uint32(0), uint64(9977957))
	f.Add([]byte("27 1 254:0 / / rw - ext4 /dev/vda rw\n"), uint32(27), uint32(0), uint64(27))
	f.Add([]byte("Uid:\t0\t65534\t0\t0\n"), uint32(0), uint32(0), uint64(0))
	f.Fuzz(func(t *testing.T, b []byte, major, minor uint32, n uint64) {
		if flockHeld(b, major, minor, n) && !strings.Contains(string(b), "FLOCK") {
			t.Errorf("flockHeld without a FLOCK line in %q", b)
		}
		if _, _, ok := mountDevice(b, n); ok && !strings.Contains(string(b), ":") {
			t.Errorf("mountDevice without a device in %q", b)
		}
		if _, err := parseStatusUID(b); err == nil && !strings.Contains(string(b), "Uid:") {
			t.Errorf("parseStatusUID without a Uid line in %q", b)
		}
	})
}
