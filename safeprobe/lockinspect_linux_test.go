package safeprobe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func init() {
	// inspect-loop inspects the lock at lockPathEnv over and over, prints
	// "inspecting" after the first, and stops when stdin closes.
	childModes["inspect-loop"] = func() {
		var done atomic.Bool
		go func() {
			var b [1]byte
			os.Stdin.Read(b[:])
			done.Store(true)
		}()
		path := os.Getenv(lockPathEnv)
		for i := 0; !done.Load(); i++ {
			Inspect(path)
			if i == 0 {
				fmt.Println("inspecting")
			}
		}
	}
}

// waitStopped waits until the process is in the stopped state.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		b, err := os.ReadFile(procPath(pid, "stat"))
		if err != nil {
			t.Fatal(err)
		}
		if state, _, _, err := parseStat(b); err == nil && state == 'T' {
			return
		}
		time.Sleep(20 * time.Microsecond)
	}
	t.Fatalf("process %d did not stop", pid)
}

// TestInspectNeverFailsTryAcquire: a process inspecting the lock in a
// loop is stopped (SIGSTOP) at random points, as a loaded machine may
// deschedule it; while it is stopped, TryAcquire of the free lock must
// succeed. A probe that takes a shared lock fails this whenever it is
// stopped holding it.
func TestInspectNeverFailsTryAcquire(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	os.WriteFile(path, []byte("1\n"), 0o600)
	inspector := startLockChild(t, "inspect-loop", lockPathEnv+"="+path)
	inspector.expect(t, "inspecting")
	pid := inspector.cmd.Process.Pid
	rounds := envInt("SAFEPROBE_INSPECT_ROUNDS", 2000)
	failures := 0
	for i := 0; i < rounds; i++ {
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		waitStopped(t, pid)
		l, err := TryAcquire(path, &LockOptions{NoSync: true})
		if err != nil {
			failures++
			if failures <= 3 {
				t.Logf("round %d: TryAcquire of a free lock while an Inspect is stopped: %v", i, err)
			}
		} else {
			l.Release()
			os.WriteFile(path, []byte("1\n"), 0o600)
		}
		if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i%7) * 50 * time.Microsecond)
	}
	if failures > 0 {
		t.Errorf("%d of %d TryAcquire calls of a free lock failed while an Inspect was stopped", failures, rounds)
	}
}

// TestLockDirectorySwappedInIsUnsafe: a directory and the lock file
// change places (renameat2 RENAME_EXCHANGE) as fast as the kernel allows
// while TryAcquire runs. Whether the directory is there at the check
// before opening or only at the open, the error wraps ErrUnsafePath.
func TestLockDirectorySwappedInIsUnsafe(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.lock")
	other := filepath.Join(dir, "other")
	os.WriteFile(path, nil, 0o600)
	os.Mkdir(other, 0o700)
	if err := unix.Renameat2(unix.AT_FDCWD, path, unix.AT_FDCWD, other, unix.RENAME_EXCHANGE); err != nil {
		t.Skip("renameat2 RENAME_EXCHANGE:", err)
	}
	var stop atomic.Bool
	swaps := make(chan int)
	go func() {
		n := 0
		for ; !stop.Load(); n++ {
			unix.Renameat2(unix.AT_FDCWD, path, unix.AT_FDCWD, other, unix.RENAME_EXCHANGE)
		}
		swaps <- n
	}()
	outcomes := map[string]int{}
	// Until the directory was caught between the check and the open a few
	// times, or for a few seconds.
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline) && outcomes["refused at the open"] < 5; {
		l, err := TryAcquire(path, &LockOptions{NoSync: true})
		switch {
		case err == nil:
			outcomes["locked"]++
			l.Release()
			os.WriteFile(path, nil, 0o600) // in case it removed the file
		case errors.Is(err, ErrUnsafePath) && strings.Contains(err.Error(), "is a directory"):
			outcomes["refused at the open"]++
		case errors.Is(err, ErrUnsafePath):
			outcomes["refused"]++
		case errors.Is(err, ErrLocked), errors.Is(err, os.ErrNotExist):
			outcomes["raced"]++ // the file moved to the other name meanwhile
		default:
			outcomes["other"]++
			if outcomes["other"] <= 3 {
				t.Errorf("TryAcquire with a directory swapped in = %v; want ErrUnsafePath", err)
			}
		}
	}
	stop.Store(true)
	t.Logf("%d swaps: %v", <-swaps, outcomes)
	if outcomes["other"] > 0 {
		t.Errorf("%d errors did not wrap ErrUnsafePath", outcomes["other"])
	}
	if outcomes["refused at the open"] == 0 {
		t.Logf("the race never put the directory in place between the check and the open")
	}
}
