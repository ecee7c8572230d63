package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Who holds a lock, asked at what the holder has: another user's flocks by
// the hundred thousand, a file of theirs with our file's inode number on
// btrfs, and a holder whose main thread has exited.

// floodLocks starts children (as nobody if asNobody) holding n shared
// flocks in all, on files of their own in a directory where they may make
// them, each child as many as its descriptor limit allows, and returns the
// size of /proc/locks in bytes.
func floodLocks(t *testing.T, n int, asNobody bool) int {
	t.Helper()
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil || lim.Max < 1000 {
		t.Skipf("descriptor limit %d, %v", lim.Max, err)
	}
	per := int(lim.Max) - 100
	dir := floodDir(t)
	start := startLockChild
	if asNobody {
		start = func(t *testing.T, mode string, env ...string) *lockChild {
			return startChildCommand(t, nobodyCommand(t, mode, env...))
		}
	}
	for left := n; left > 0; left -= per {
		c := start(t, "flock-read", lockPathEnv+"="+filepath.Join(dir, "f"), flockSharedEnv+"=1",
			flockCountEnv+"="+strconv.Itoa(min(left, per)))
		c.expect(t, "locked")
	}
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		t.Skip(err)
	}
	return len(b)
}

// floodDir is a sticky directory anyone may make files in, on a tmpfs
// where there is one: hundreds of thousands of empty files are made there.
func floodDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/dev/shm", "safeprobe-flood")
	if err != nil {
		return stickyDir(t)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	return dir
}

// floodBound is what SignalOwner and Inspect may take, each, however many
// flocks other users hold.
const floodBound = 100 * time.Millisecond

// TestLockFloodByAnotherUser: nobody holds 200,000 flocks on files of its
// own (SAFEPROBE_FLOOD_LOCKS; 20,000 with -short). Reading /proc/locks
// whole then takes most of a minute, as the kernel walks it from its start
// for each page. SignalOwner and Inspect must cost what the holder has,
// not what the machine holds: each stays within floodBound (the median of
// five), on a held lock and on a free one, and each says what it said
// before the flood.
func TestLockFloodByAnotherUser(t *testing.T) {
	requireRoot(t)
	n := 200000
	if testing.Short() {
		n = 20000
	}
	n = envInt("SAFEPROBE_FLOOD_LOCKS", n)
	dir := t.TempDir()
	held := filepath.Join(dir, "held.lock")
	holder, _ := signalWatcher(t, held, false)
	free := filepath.Join(dir, "free.lock")
	if err := os.WriteFile(free, []byte(recordOf(exitedIdentity(t))), 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	size := floodLocks(t, n, true)
	t.Logf("nobody holds %d flocks (/proc/locks %d bytes), in %v", n, size, time.Since(start).Round(time.Millisecond))

	for _, c := range []struct {
		name string
		call func() error
	}{
		{"Inspect(held)", func() error {
			st, err := Inspect(held)
			if err == nil && (!st.Held || st.State != Running) {
				err = fmt.Errorf("Inspect = %+v; want held by a running process", st)
			}
			return err
		}},
		{"SignalOwner(held)", func() error {
			if err := SignalOwner(held, syscall.SIGUSR1); err != nil {
				return err
			}
			holder.expect(t, "got user defined signal 1")
			return nil
		}},
		{"Inspect(free)", func() error {
			st, err := Inspect(free)
			if err == nil && (st.Held || !st.Stale) {
				err = fmt.Errorf("Inspect = %+v; want free, stale", st)
			}
			return err
		}},
		{"SignalOwner(free)", func() error {
			if err := SignalOwner(free, syscall.SIGUSR1); !errors.Is(err, ErrNotHeld) {
				return fmt.Errorf("SignalOwner = %v; want ErrNotHeld", err)
			}
			return nil
		}},
	} {
		var took []time.Duration
		for i := 0; i < 5; i++ {
			d, err := timeBounded(c.call, 50*floodBound)
			if err != nil {
				t.Fatalf("%s under the flood: %v", c.name, err)
			}
			took = append(took, d)
		}
		sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
		t.Logf("%s: median %v of %v", c.name, took[2], took)
		if took[2] > floodBound {
			t.Errorf("%s took %v (median of 5) with %d flocks of nobody's; want within %v", c.name, took[2], n, floodBound)
		}
	}
}

// timeBounded runs call and returns how long it took, or an error once it
// has run for limit: it is then left to finish in the background, which it
// does once the test's children are gone.
func timeBounded(call func() error, limit time.Duration) (time.Duration, error) {
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		return time.Since(start), err
	case <-time.After(limit):
		return limit, fmt.Errorf("still running after %v", limit)
	}
}

// TestInspectBtrfsSubvolumeSameInode: on btrfs, /proc/locks names a file
// by the file system's device and the inode number, and every subvolume
// numbers its files from 257. Nobody makes a subvolume of its own and
// flocks its first file there, which has the inode number of root's lock
// file, free in root's subvolume. Inspect must say root's lock is free: a
// supervisor that trusts it would otherwise refuse to start its daemon.
// On a loop-mounted btrfs (mkfs.btrfs, from btrfs-progs).
func TestInspectBtrfsSubvolumeSameInode(t *testing.T) {
	requireRoot(t)
	uid := nobodyIDs(t)
	mnt := loopBtrfs(t)
	btrfs := facility(t, "btrfs", "btrfs-progs")
	for _, sv := range []string{"root", "nobody"} {
		if out, err := runCmd(btrfs, "subvolume", "create", filepath.Join(mnt, sv)); err != nil {
			t.Fatalf("btrfs subvolume create: %v (%s)", err, out)
		}
	}
	os.Chmod(filepath.Join(mnt, "root"), 0o755)
	if err := os.Chown(filepath.Join(mnt, "nobody"), uid, uid); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(mnt, "root", "x.lock")
	if err := os.WriteFile(path, []byte(recordOf(exitedIdentity(t))), 0o600); err != nil {
		t.Fatal(err)
	}
	attack(t, `btrfs subvolume create "$1"`, filepath.Join(mnt, "nobody", "sv"))
	theirs := filepath.Join(mnt, "nobody", "sv", "f")
	attacker := startChildCommand(t, nobodyCommand(t, "flock-read", lockPathEnv+"="+theirs))
	attacker.expect(t, "locked")
	var ours, their unix.Stat_t
	if err := unix.Stat(path, &ours); err != nil {
		t.Fatal(err)
	}
	if err := unix.Stat(theirs, &their); err != nil {
		t.Fatal(err)
	}
	t.Logf("root's lock file: dev %#x ino %d; nobody's: dev %#x ino %d", ours.Dev, ours.Ino, their.Dev, their.Ino)
	if ours.Ino != their.Ino || ours.Dev == their.Dev {
		t.Fatalf("the two files are not one inode number on two subvolumes")
	}
	st, err := Inspect(path)
	if err != nil || st.Held || !st.Stale {
		t.Errorf("Inspect of root's free lock, while nobody flocks a file of the same inode number = %+v, %v; want free, stale", st, err)
	}
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("TryAcquire = %v", err)
	}
	if st, err := Inspect(path); err != nil || !st.Held || st.Record.PID != os.Getpid() {
		t.Errorf("Inspect of root's lock, held = %+v, %v; want held by this process", st, err)
	}
	l.Release()
}

// runCmd runs a command and returns its combined output.
func runCmd(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// TestSignalOwnerHolderWhoseMainThreadExited: a holder's main thread
// exits while its other threads run on and hold the lock. /proc/<pid>/fd
// is empty for a zombie thread group leader; its descriptors are listed
// under /proc/<pid>/task/<tid>/fd. SignalOwner must find the lock there and
// signal the holder, and Inspect say it is held by a running process, not
// "another process holds it".
func TestSignalOwnerHolderWhoseMainThreadExited(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	holder := startLockChild(t, "leader-exit", lockPathEnv+"="+path, lockSignalEnv+"=1")
	holder.expect(t, "signals ready")
	holder.expect(t, "ready")
	pid := holder.cmd.Process.Pid
	waitLeaderExited(t, pid)
	if ents, err := os.ReadDir(procPath(pid, "fd")); err != nil || len(ents) != 0 {
		t.Fatalf("/proc/%d/fd of the zombie leader: %d entries, %v; the test needs it empty", pid, len(ents), err)
	}
	st, err := Inspect(path)
	if err != nil || !st.Held || st.Record.PID != pid || st.State != Running {
		t.Errorf("Inspect = %+v, %v; want held by the running pid %d", st, err, pid)
	}
	if err := SignalOwner(path, syscall.SIGUSR1); err != nil {
		t.Fatalf("SignalOwner of a holder whose main thread exited = %v", err)
	}
	holder.expect(t, "got user defined signal 1")
	holder.finish(t)
}

// TestSignalOwnerContextEnds: SignalOwnerContext with a context that has
// ended signals nothing, and its error says why.
func TestSignalOwnerContextEnds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	holder, _ := signalWatcher(t, path, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := SignalOwnerContext(ctx, path, syscall.SIGUSR1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("SignalOwnerContext(ended context) = %v; want context.Canceled", err)
	}
	select {
	case line := <-holder.lines:
		t.Errorf("the holder was signalled: %q", line)
	case <-time.After(200 * time.Millisecond):
	}
	if err := SignalOwnerContext(context.Background(), path, syscall.SIGUSR1, nil); err != nil {
		t.Fatalf("SignalOwnerContext = %v", err)
	}
	holder.expect(t, "got user defined signal 1")
}
