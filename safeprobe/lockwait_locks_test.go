//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows

package safeprobe

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestAcquireWithEndedContextTakesAFreeLock: a context that has already
// ended still gets one try; a free lock is taken, a held one reported
// with the context's error and ErrLocked.
func TestAcquireWithEndedContextTakesAFreeLock(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	l, err := Acquire(ended, path, nil)
	if err != nil {
		t.Fatalf("Acquire of a free lock with an ended context = %v", err)
	}
	if _, err := Acquire(ended, path, nil); !errors.Is(err, context.Canceled) || !errors.Is(err, ErrLocked) {
		t.Errorf("Acquire of a held lock with an ended context = %v; want Canceled and ErrLocked", err)
	}
	l.Release()
}

// TestAcquireTinyBackoffDoesNotSpin: with MinBackoff and MaxBackoff of
// 1 ns, Acquire of a lock this process holds (where each attempt fails
// at once) still waits between attempts instead of spinning a core.
func TestAcquireTinyBackoffDoesNotSpin(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	var attempts atomic.Int64
	testHookOpened = func(f lockFile) lockFile { attempts.Add(1); return f }
	defer func() { testHookOpened = nil }()
	const wait = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_, err = Acquire(ctx, path, &LockOptions{MinBackoff: time.Nanosecond, MaxBackoff: time.Nanosecond})
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrLocked) {
		t.Fatalf("Acquire = %v; want DeadlineExceeded and ErrLocked", err)
	}
	// Waits of at least half of 100 µs, doubling to at least half of 1 ms.
	limit := int64(5 + wait/(500*time.Microsecond))
	if n := attempts.Load(); n > limit {
		t.Errorf("%d attempts in %v with 1 ns backoffs; want at most %d", n, wait, limit)
	} else {
		t.Logf("%d attempts in %v", n, wait)
	}
}
