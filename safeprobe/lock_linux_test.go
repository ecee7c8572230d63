package safeprobe

import (
	"path/filepath"
	"strconv"
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
