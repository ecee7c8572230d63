//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows

package safeprobe

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Environment of the lock child modes.
const (
	lockPathEnv   = "SAFEPROBE_LOCK_PATH"   // the lock file
	lockDirEnv    = "SAFEPROBE_LOCK_DIR"    // lock-contend: where the shared files are
	lockRoundsEnv = "SAFEPROBE_LOCK_ROUNDS" // lock-contend: rounds per process
	lockTTLEnv    = "SAFEPROBE_LOCK_TTL"    // lock-takeover: the request's ttl
	lockWaitEnv   = "SAFEPROBE_LOCK_WAIT"   // lock-takeover: then Acquire
)

func init() {
	// lock-hold takes the lock, prints "locked <pid>", and holds it until
	// stdin closes.
	childModes["lock-hold"] = func() {
		l, err := TryAcquire(os.Getenv(lockPathEnv), nil)
		if err != nil {
			fmt.Printf("error %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("locked %d\n", os.Getpid())
		lockChildHooks(l)
		io.Copy(io.Discard, os.Stdin)
		if err := l.Release(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	// lock-takeover asks for the lock, prints "requested", and with
	// lockWaitEnv set waits for it, prints "acquired" and holds it until
	// stdin closes; without, it waits for stdin to close.
	childModes["lock-takeover"] = func() {
		path := os.Getenv(lockPathEnv)
		ttl, _ := time.ParseDuration(os.Getenv(lockTTLEnv))
		if err := RequestTakeover(path, ttl); err != nil {
			fmt.Printf("error %v\n", err)
			os.Exit(1)
		}
		fmt.Println("requested")
		if os.Getenv(lockWaitEnv) != "" {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			l, err := Acquire(ctx, path, nil)
			cancel()
			if err != nil {
				fmt.Printf("error %v\n", err)
				os.Exit(1)
			}
			fmt.Println("acquired")
			defer l.Release()
		}
		io.Copy(io.Discard, os.Stdin)
	}
	// lock-contend runs rounds of: Acquire, enter a critical section
	// (create an O_EXCL marker; failing to means someone else is inside),
	// check that the lock file holds this process's record, increment a
	// counter file without any other synchronisation, leave, Release. It
	// prints "overlaps=N foreign=N".
	childModes["lock-churn"] = func() {
		path := filepath.Join(os.Getenv(lockDirEnv), "churn.lock")
		rounds, _ := strconv.Atoi(os.Getenv(lockRoundsEnv))
		for i := 0; i < rounds; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			l, err := Acquire(ctx, path, &LockOptions{NoSync: true})
			cancel()
			if err != nil {
				fmt.Printf("error %v\n", err)
				os.Exit(1)
			}
			time.Sleep(100 * time.Microsecond)
			if err := l.Release(); err != nil {
				fmt.Printf("error %v\n", err)
				os.Exit(1)
			}
		}
		fmt.Println("churned")
	}
	childModes["lock-contend"] = func() {
		dir := os.Getenv(lockDirEnv)
		rounds, _ := strconv.Atoi(os.Getenv(lockRoundsEnv))
		path := filepath.Join(dir, "contend.lock")
		inside := filepath.Join(dir, "inside")
		counter := filepath.Join(dir, "counter")
		overlaps, foreign := 0, 0
		for i := 0; i < rounds; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			l, err := Acquire(ctx, path, nil)
			cancel()
			if err != nil {
				fmt.Printf("error %v\n", err)
				os.Exit(1)
			}
			mark, err := os.OpenFile(inside, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
			if err != nil {
				overlaps++
			}
			if b, err := os.ReadFile(path); err != nil {
				foreign++
			} else if r, err := parseRecord(b); err != nil || r.PID != os.Getpid() {
				foreign++
			}
			b, _ := os.ReadFile(counter)
			n, _ := strconv.Atoi(string(b))
			if err := os.WriteFile(counter, []byte(strconv.Itoa(n+1)), 0o600); err != nil {
				fmt.Printf("error %v\n", err)
				os.Exit(1)
			}
			if mark != nil {
				mark.Close()
				os.Remove(inside)
			}
			if err := l.Release(); err != nil {
				fmt.Printf("error %v\n", err)
				os.Exit(1)
			}
		}
		fmt.Printf("overlaps=%d foreign=%d\n", overlaps, foreign)
	}
}

// lockChild is a running child process in a lock child mode.
type lockChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
}

// startLockChild starts the test binary in mode with env; when the test
// ends, its stdin is closed and it is killed if still running, and reaped.
func startLockChild(t *testing.T, mode string, env ...string) *lockChild {
	t.Helper()
	return startChildCommand(t, childCommand(t, mode, env...))
}

// startChildCommand is startLockChild for a command built by the caller (a
// child command run through a wrapper such as unshare).
func startChildCommand(t *testing.T, cmd *exec.Cmd) *lockChild {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &lockChild{cmd: cmd, stdin: stdin, lines: make(chan string, 16)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		if cmd.ProcessState == nil {
			exited := make(chan struct{})
			go func() {
				select {
				case <-exited:
				case <-time.After(10 * time.Second):
					cmd.Process.Kill()
				}
			}()
			cmd.Wait()
			close(exited)
		}
		<-done
	})
	return c
}

// expect waits for the child's next line, which must start with prefix,
// and returns the rest.
func (c *lockChild) expect(t *testing.T, prefix string) string {
	t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			t.Fatalf("child %d exited before printing %q", c.cmd.Process.Pid, prefix)
		}
		if !strings.HasPrefix(line, prefix) {
			t.Fatalf("child %d printed %q, want %q...", c.cmd.Process.Pid, line, prefix)
		}
		return strings.TrimSpace(strings.TrimPrefix(line, prefix))
	case <-time.After(time.Minute):
		t.Fatalf("child %d printed nothing for a minute, want %q", c.cmd.Process.Pid, prefix)
	}
	return ""
}

// finish closes the child's stdin and waits for it to exit successfully.
func (c *lockChild) finish(t *testing.T) {
	t.Helper()
	c.stdin.Close()
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("child %d: %v", c.cmd.Process.Pid, err)
	}
}

// kill kills the child and reaps it.
func (c *lockChild) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	c.cmd.Wait()
}

// holdRaw locks path without TryAcquire and writes content as the record,
// to hold a lock whose record says whatever a test needs.
func holdRaw(t *testing.T, path string, content string) lockFile {
	t.Helper()
	f, err := openLockFile(path, true, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.tryLock(); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := writeRecord(f, []byte(content), false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.unlock(); f.Close() })
	return f
}

// lockTestDir is t.TempDir, removed file by file where os.RemoveAll fails:
// Wine lacks the POSIX-semantics delete Go's os.RemoveAll uses on Windows
// ("Invalid function").
func lockTestDir(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "windows" {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("", "safeprobe-lock")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if os.RemoveAll(dir) == nil {
			return
		}
		var paths []string
		filepath.WalkDir(dir, func(p string, _ fs.DirEntry, _ error) error {
			paths = append(paths, p)
			return nil
		})
		for i := len(paths) - 1; i >= 0; i-- {
			os.Remove(paths[i])
		}
		if _, err := os.Lstat(dir); err == nil {
			t.Errorf("cannot remove %s", dir)
		}
	})
	return dir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantOwnRecord checks that the file at path holds this process's record.
func wantOwnRecord(t *testing.T, path string, l *Lock) {
	t.Helper()
	r, err := parseRecord([]byte(readFile(t, path)))
	if err != nil {
		t.Fatalf("record after acquiring: %v", err)
	}
	if r.PID != os.Getpid() || !recordsEqual(r, l.Owner()) {
		t.Fatalf("record %+v, want this process's %+v", r, l.Owner())
	}
}

func TestLockAcquireInspectRelease(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	l, err := TryAcquire(path, &LockOptions{Program: "testd"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Path() != path {
		t.Errorf("Path() = %q, want %q", l.Path(), path)
	}
	wantOwnRecord(t, path, l)
	o := l.Owner()
	self, _ := Self()
	if o.Version != recordVersion || !o.HasIdentity || !o.Identity.Same(self) || o.Program != "testd" || o.Acquired.IsZero() {
		t.Errorf("Owner() = %+v, want version %d, identity %v, program testd, a time", o, recordVersion, self)
	}
	if first, _, _ := strings.Cut(readFile(t, path), "\n"); first != strconv.Itoa(os.Getpid()) {
		t.Errorf("first line %q is not the bare PID", first)
	}
	st, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Held || st.Stale || st.Corrupt || st.State != Running || !recordsEqual(st.Record, o) {
		t.Errorf("Inspect of a held lock = %+v", st)
	}
	if err := l.Check(); err != nil {
		t.Errorf("Check() = %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock file left after Release: %v", err)
	}
	// A second Release does nothing and says so.
	if err := l.Release(); !errors.Is(err, ErrNotHeld) {
		t.Errorf("second Release() = %v, want ErrNotHeld", err)
	}
	if err := l.Check(); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Check() after Release = %v, want ErrNotHeld", err)
	}
	if _, err := Inspect(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Inspect without a file = %v, want fs.ErrNotExist", err)
	}
	// Free again.
	l2, err := TryAcquire(path, &LockOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	l2.Release()
}

func TestLockSecondTryAcquireInSameProcessFails(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	before := readFile(t, path)
	l2, err := TryAcquire(path, nil)
	var le *LockError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &le) || le.PID != os.Getpid() || le.Path != path {
		t.Fatalf("second TryAcquire = %v, %v; want a *LockError wrapping ErrLocked naming the path and pid %d", l2, err, os.Getpid())
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), strconv.Itoa(os.Getpid())) {
		t.Errorf("error %q does not name the path and the holder", err)
	}
	// The kernel agrees, without the process's own table: a lock on
	// another open file of the same file fails.
	f, err := openLockFile(path, true, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.tryLock(); !errors.Is(err, errWouldBlock) {
		t.Fatalf("a second open file's lock = %v, want errWouldBlock", err)
	}
	if got := readFile(t, path); got != before {
		t.Errorf("failed TryAcquire changed the record: %q -> %q", before, got)
	}
	if err := l.Check(); err != nil {
		t.Errorf("the first lock was disturbed: %v", err)
	}
}

func TestAcquireWaitsUntilFreeOrContextEnds(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = Acquire(ctx, path, nil)
	var le *LockError
	if !errors.Is(err, ErrLocked) || !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &le) || le.PID != os.Getpid() {
		t.Fatalf("Acquire past its deadline = %v; want ErrLocked, DeadlineExceeded and the holder's pid", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Acquire returned %v after its deadline", d)
	}
	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := Acquire(cancelled, path, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Acquire with a cancelled context = %v", err)
	}

	got := make(chan error, 1)
	go func() {
		l2, err := Acquire(context.Background(), path, &LockOptions{MaxBackoff: 20 * time.Millisecond})
		if err == nil {
			err = l2.Release()
		}
		got <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Acquire did not get the released lock")
	}
}

// TestLockCorruptRecordsDoNotBlock: whatever the file holds, the kernel
// lock decides; Inspect reports the record as corrupt, with the reason.
func TestLockCorruptRecordsDoNotBlock(t *testing.T) {
	for _, c := range corruptRecords {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(lockTestDir(t), "d.pid")
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			st, err := Inspect(path)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Corrupt || !strings.Contains(st.Reason, c.reason) || st.Record != (Record{}) || st.Held || !st.Stale || st.State != Unknown {
				t.Errorf("Inspect = %+v; want Corrupt with reason %q, zero record, stale", st, c.reason)
			}
			l, err := TryAcquire(path, nil)
			if err != nil {
				t.Fatalf("TryAcquire over a corrupt record: %v", err)
			}
			wantOwnRecord(t, path, l)
			l.Release()
		})
	}
}

// TestLockCorruptRecordWhileHeld: a held lock with a corrupt record is
// still held; TryAcquire fails without a PID, Inspect says why.
func TestLockCorruptRecordWhileHeld(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	holdRaw(t, path, "-1\n")
	_, err := TryAcquire(path, nil)
	var le *LockError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &le) || le.PID != 0 {
		t.Fatalf("TryAcquire = %v; want ErrLocked without a PID", err)
	}
	st, err := Inspect(path)
	if err != nil || !st.Held || !st.Corrupt || st.Reason == "" {
		t.Fatalf("Inspect = %+v, %v; want held and corrupt", st, err)
	}
}

// exitedIdentity returns the identity of a child process that has exited
// and been reaped.
func exitedIdentity(t *testing.T) Identity {
	t.Helper()
	c := startLockChild(t, "lock-takeover", lockPathEnv+"="+filepath.Join(lockTestDir(t), "unused"), lockTTLEnv+"=1s")
	c.expect(t, "requested")
	id, err := Lookup(c.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	c.finish(t)
	return id
}

// TestLockStaleRecords: a record whose holder is gone (exited, or from an
// earlier boot) is no obstacle; Inspect says what became of the holder.
func TestLockStaleRecords(t *testing.T) {
	self, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	dead := exitedIdentity(t)
	earlierBoot := self
	earlierBoot.BootID = "boot-before-the-power-cut"
	for _, c := range []struct {
		name  string
		rec   Record
		state State
	}{
		{"exited holder", Record{PID: dead.PID, Version: 1, HasIdentity: true, Identity: dead}, NotFound},
		{"earlier boot, PID now someone else's", Record{PID: self.PID, Version: 1, HasIdentity: true, Identity: earlierBoot}, Reused},
		{"start time of another process", Record{PID: self.PID, Version: 1, HasIdentity: true,
			Identity: Identity{PID: self.PID, StartTime: self.StartTime + 1, BootID: self.BootID}}, Reused},
		{"bare PID of an exited process", Record{PID: dead.PID}, NotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(lockTestDir(t), "d.pid")
			if err := os.WriteFile(path, formatRecord(c.rec), 0o600); err != nil {
				t.Fatal(err)
			}
			st, err := Inspect(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Held || !st.Stale || st.Corrupt || st.State != c.state || !recordsEqual(st.Record, c.rec) {
				t.Errorf("Inspect = %+v; want stale, state %v, record %+v", st, c.state, c.rec)
			}
			l, err := TryAcquire(path, nil)
			if err != nil {
				t.Fatalf("TryAcquire over a stale record: %v", err)
			}
			wantOwnRecord(t, path, l)
			l.Release()
		})
	}
}

// TestInspectTornRead: a reader racing the holder's truncate and write
// reads again while the lock is held, and reports the finished record.
func TestInspectTornRead(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	f := holdRaw(t, path, "")
	self, _ := Self()
	rec := Record{PID: os.Getpid(), Version: 1, HasIdentity: true, Identity: self}
	full := formatRecord(rec)
	go func() {
		time.Sleep(3 * time.Millisecond)
		// Half the record: past the PID line (which alone would be a
		// complete plain PID file), into the JSON, no final newline.
		f.WriteAt(full[:len(full)/2], 0)
		time.Sleep(3 * time.Millisecond)
		f.WriteAt(full, 0)
	}()
	st, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Held || st.Corrupt || !recordsEqual(st.Record, rec) || st.State != Running {
		t.Errorf("Inspect during the write = %+v; want the finished record", st)
	}

	// A record that stays empty while held is reported as corrupt after
	// the retries; an empty file nobody holds at once, with no pause. The
	// pauses are counted, not timed: on a loaded machine one read may take
	// longer than all the pauses, and a count tells "at once" apart from
	// "after retries" whatever the load.
	var pauses atomic.Int64
	tornPause = func(ctx context.Context, d time.Duration) error { pauses.Add(1); return sleepCtx(ctx, d) }
	defer func() { tornPause = sleepCtx }()
	path2 := filepath.Join(lockTestDir(t), "d.pid")
	holdRaw(t, path2, "")
	start := time.Now()
	st, err = Inspect(path2)
	if err != nil || !st.Held || !st.Corrupt || st.Reason != "empty" {
		t.Errorf("Inspect of a held empty file = %+v, %v", st, err)
	}
	if n := pauses.Load(); n != tornRetriesWriting {
		t.Errorf("Inspect of a held empty file paused %d times; want the %d retries of a record being written", n, tornRetriesWriting)
	}
	if d := time.Since(start); d < 20*time.Millisecond || d > 5*time.Second {
		t.Errorf("Inspect of a held empty file took %v; want the retries (~0.5 s)", d)
	}
	path3 := filepath.Join(lockTestDir(t), "d.pid")
	os.WriteFile(path3, nil, 0o600)
	pauses.Store(0)
	st, err = Inspect(path3)
	if err != nil || st.Held || !st.Corrupt || pauses.Load() != 0 {
		t.Errorf("Inspect of a free empty file = %+v, %v after %d pauses; want corrupt at once", st, err, pauses.Load())
	}
}

// TestInspectDoesNotFailTryAcquire: Inspect's probe holds a shared lock
// for a moment; TryAcquire must not report that as the lock being held.
func TestInspectDoesNotFailTryAcquire(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	os.WriteFile(path, []byte("1\n"), 0o600)
	stop := make(chan struct{})
	var probes atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := Inspect(path); err == nil {
				probes.Add(1)
			}
		}
	}()
	failures := 0
	const rounds = 300
	for i := 0; i < rounds; i++ {
		l, err := TryAcquire(path, &LockOptions{NoSync: true})
		if err != nil {
			failures++
			continue
		}
		// Release removes the file; keep one for Inspect to probe.
		l.Release()
		os.WriteFile(path, []byte("1\n"), 0o600)
	}
	close(stop)
	wg.Wait()
	t.Logf("%d TryAcquire calls during %d Inspect probes: %d failed", rounds, probes.Load(), failures)
	if failures > 0 {
		t.Errorf("%d of %d TryAcquire calls failed because of Inspect probes", failures, rounds)
	}
}

// TestAcquireRetriesWhenTheFileGoes: a waiter that opened the file before
// the holder released (and removed) it gets the lock on a file no longer at
// the path; it must start over and lock the path's new file.
func TestAcquireRetriesWhenTheFileGoes(t *testing.T) {
	for _, replace := range []bool{false, true} {
		name := map[bool]string{false: "unlinked", true: "replaced"}[replace]
		t.Run(name, func(t *testing.T) {
			if replace && runtime.GOOS == "windows" {
				t.Skip("Windows refuses to rename over an open file")
			}
			dir := lockTestDir(t)
			path := filepath.Join(dir, "d.pid")
			a, err := TryAcquire(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			other := filepath.Join(dir, "other")
			os.WriteFile(other, []byte("someone else's file\n"), 0o600)
			var once sync.Once
			testHookOpened = func(f lockFile) lockFile {
				once.Do(func() {
					// B has the old file open: now it goes.
					if replace {
						if err := os.Rename(other, path); err != nil {
							t.Error(err)
						}
					}
					if err := a.Release(); err != nil {
						t.Error(err)
					}
				})
				return f
			}
			defer func() { testHookOpened = nil }()
			b, err := TryAcquire(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Release()
			if err := b.Check(); err != nil {
				t.Fatalf("the waiter holds a file that is not at the path: %v", err)
			}
			wantOwnRecord(t, path, b)
		})
	}
}

// TestLockFileReplacedByOthers: someone outside the protocol removes or
// replaces a held lock file. A waiter gets the path's new file; the old
// holder's Check says it lost the path, and its Release leaves the new
// holder's file alone.
func TestLockFileReplacedByOthers(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows refuses to rename over an open file, and without POSIX delete semantics keeps a removed file's name until its holder closes it")
	}
	for _, replace := range []bool{false, true} {
		name := map[bool]string{false: "unlinked", true: "replaced"}[replace]
		t.Run(name, func(t *testing.T) {
			dir := lockTestDir(t)
			path := filepath.Join(dir, "d.pid")
			a, err := TryAcquire(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := make(chan *Lock, 1)
			go func() {
				b, err := Acquire(context.Background(), path, &LockOptions{MaxBackoff: 10 * time.Millisecond})
				if err != nil {
					t.Error(err)
				}
				got <- b
			}()
			time.Sleep(30 * time.Millisecond)
			if replace {
				other := filepath.Join(dir, "other")
				os.WriteFile(other, []byte("1\n"), 0o600)
				if err := os.Rename(other, path); err != nil {
					t.Fatal(err)
				}
			} else if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			var b *Lock
			select {
			case b = <-got:
			case <-time.After(10 * time.Second):
				t.Fatal("the waiter did not get the new file")
			}
			if b == nil {
				return
			}
			if err := b.Check(); err != nil {
				t.Errorf("new holder: %v", err)
			}
			if err := a.Check(); !errors.Is(err, ErrNotHeld) {
				t.Errorf("old holder's Check() = %v, want ErrNotHeld", err)
			}
			if err := a.Release(); err != nil {
				t.Errorf("old holder's Release: %v", err)
			}
			wantOwnRecord(t, path, b)
			if err := b.Check(); err != nil {
				t.Errorf("the old holder's Release disturbed the new holder: %v", err)
			}
			b.Release()
		})
	}
}

// TestLockContention: N processes × M rounds of Acquire, critical section,
// Release; no two are ever inside at once and no update is lost.
// SAFEPROBE_LOCK_PROCS and SAFEPROBE_LOCK_ROUNDS scale it (default 8×50;
// 8×20 on Windows, where process and file calls under Wine are slow).
func TestLockContention(t *testing.T) {
	defRounds := 50
	if runtime.GOOS == "windows" {
		defRounds = 20
	}
	procs, rounds := envInt("SAFEPROBE_LOCK_PROCS", 8), envInt("SAFEPROBE_LOCK_ROUNDS", defRounds)
	dir := lockTestDir(t)
	start := time.Now()
	children := make([]*lockChild, procs)
	for i := range children {
		children[i] = startLockChild(t, "lock-contend", lockDirEnv+"="+dir, lockRoundsEnv+"="+strconv.Itoa(rounds))
	}
	overlaps, foreign := 0, 0
	for _, c := range children {
		var o, f int
		if _, err := fmt.Sscanf(c.expect(t, "overlaps="), "%d foreign=%d", &o, &f); err != nil {
			t.Fatal(err)
		}
		overlaps += o
		foreign += f
		c.finish(t)
	}
	elapsed := time.Since(start)
	n, _ := strconv.Atoi(readFile(t, filepath.Join(dir, "counter")))
	t.Logf("%d processes × %d rounds in %v: %d overlaps, %d foreign records, counter %d",
		procs, rounds, elapsed.Round(time.Millisecond), overlaps, foreign, n)
	if overlaps != 0 || foreign != 0 || n != procs*rounds {
		t.Errorf("%d overlaps, %d rounds saw another's record, counter %d; want 0, 0, %d", overlaps, foreign, n, procs*rounds)
	}
	if _, err := os.Lstat(filepath.Join(dir, "contend.lock")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock file left after the last Release: %v", err)
	}
}

// TestLockContentionChurn: 8 processes take turns on a lock on a tmpfs,
// holding it 100 µs, so a round takes microseconds: a TryAcquire that waited out a holder then finds the
// file released and removed, and chasing the next file would never end;
// an open(O_CREAT) can also race a holder's unlink. Every Acquire must
// still succeed.
func TestLockContentionChurn(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no tmpfs")
	}
	dir, err := os.MkdirTemp("/dev/shm", "safeprobe-churn")
	if err != nil {
		t.Skipf("no /dev/shm: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	children := make([]*lockChild, 8)
	for i := range children {
		children[i] = startLockChild(t, "lock-churn", lockDirEnv+"="+dir, lockRoundsEnv+"=100")
	}
	for _, c := range children {
		c.expect(t, "churned")
		c.finish(t)
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// TestLockRecoversFromKilledHolder: a holder killed while holding (no
// chance to clean up) does not stop the next process: a waiter in Acquire
// gets the lock in well under a second. SAFEPROBE_LOCK_RECOVERY_RUNS sets
// the number of runs (default 3).
func TestLockRecoversFromKilledHolder(t *testing.T) {
	runs := envInt("SAFEPROBE_LOCK_RECOVERY_RUNS", 3)
	var latencies []time.Duration
	for i := 0; i < runs; i++ {
		path := filepath.Join(lockTestDir(t), "d.pid")
		holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path)
		pid, _ := strconv.Atoi(holder.expect(t, "locked"))
		got := make(chan time.Time, 1)
		go func() {
			l, err := Acquire(context.Background(), path, nil)
			if err != nil {
				t.Error(err)
				got <- time.Time{}
				return
			}
			got <- time.Now()
			if l.Owner().PID != os.Getpid() {
				t.Errorf("record names %d", l.Owner().PID)
			}
			l.Release()
		}()
		// Let the waiter's backoff reach its cap.
		time.Sleep(400 * time.Millisecond)
		st, err := Inspect(path)
		if err != nil || !st.Held || st.Record.PID != pid || st.State != Running {
			t.Fatalf("Inspect while the holder runs = %+v, %v", st, err)
		}
		killed := time.Now()
		holder.kill(t)
		acquired := <-got
		if acquired.IsZero() {
			return
		}
		latencies = append(latencies, acquired.Sub(killed))
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	t.Logf("recovery latency over %d runs: median %v, max %v", len(latencies),
		latencies[len(latencies)/2].Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
	if max := latencies[len(latencies)-1]; max >= time.Second {
		t.Errorf("recovery took %v, want < 1s", max)
	}
}

func TestLockUnsafePathsPortable(t *testing.T) {
	dir := lockTestDir(t)
	t.Run("directory", func(t *testing.T) {
		path := filepath.Join(dir, "adir")
		os.Mkdir(path, 0o700)
		os.WriteFile(filepath.Join(path, "keep"), []byte("x"), 0o600)
		wantUnsafe(t, path, "directory")
		if _, err := os.Stat(filepath.Join(path, "keep")); err != nil {
			t.Errorf("directory content disturbed: %v", err)
		}
	})
	t.Run("hard link", func(t *testing.T) {
		target := filepath.Join(dir, "precious")
		os.WriteFile(target, []byte("precious content\n"), 0o600)
		path := filepath.Join(dir, "linked.pid")
		if err := os.Link(target, path); err != nil {
			t.Skip(err)
		}
		wantUnsafe(t, path, "hard links")
		if got := readFile(t, target); got != "precious content\n" {
			t.Errorf("hard-linked file changed: %q", got)
		}
	})
}

// wantUnsafe checks that TryAcquire of path fails with a *LockError
// wrapping ErrUnsafePath whose message says why, and leaves the file.
func wantUnsafe(t *testing.T, path, reason string) {
	t.Helper()
	before, statErr := os.Lstat(path)
	var content []byte
	if statErr == nil && before.Mode().IsRegular() {
		content, _ = os.ReadFile(path)
	}
	l, err := TryAcquire(path, nil)
	if err == nil {
		l.Release()
		t.Fatalf("TryAcquire(%s) succeeded", path)
	}
	var le *LockError
	if !errors.As(err, &le) || le.Path != path || le.Op != "acquire" || !strings.Contains(err.Error(), reason) {
		t.Errorf("TryAcquire(%s) = %v; want a *LockError naming the path and %q", path, err, reason)
	}
	if reason != "permission denied" && !errors.Is(err, ErrUnsafePath) {
		t.Errorf("TryAcquire(%s) = %v; want ErrUnsafePath", path, err)
	}
	after, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("file gone after a refused TryAcquire: %v", err)
	}
	if statErr == nil && (after.Mode() != before.Mode() || after.ModTime() != before.ModTime()) {
		t.Errorf("file changed: %v %v -> %v %v", before.Mode(), before.ModTime(), after.Mode(), after.ModTime())
	}
	if content != nil {
		if got, _ := os.ReadFile(path); string(got) != string(content) {
			t.Errorf("content changed: %q -> %q", content, got)
		}
	}
}

// TestLockDirClose: Close lets the directory go at once, or, while a Lock
// taken through the LockDir is held, when that Lock is released; that Lock
// keeps working. Every later call of the LockDir, and a second Close, fail
// with fs.ErrClosed. No descriptor is left open.
func TestLockDirClose(t *testing.T) {
	root := lockTestDir(t)
	before := openFDs(t)
	d, err := NewLockDir(filepath.Join(root, "locks"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := d.TryAcquire("held", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	if err := d.Close(); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("second Close = %v; want fs.ErrClosed", err)
	}
	if _, err := d.TryAcquire("other", nil); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("TryAcquire after Close = %v; want fs.ErrClosed", err)
	}
	if _, err := d.Acquire(context.Background(), "other", nil); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Acquire after Close = %v; want fs.ErrClosed", err)
	}
	if _, err := d.Inspect("held"); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Inspect after Close = %v; want fs.ErrClosed", err)
	}
	if err := l.Check(); err != nil {
		t.Errorf("Check of a Lock held through the closed LockDir = %v", err)
	}
	if ok, _ := l.TakeoverRequested(); ok {
		t.Errorf("TakeoverRequested = true with no marker")
	}
	if err := l.Release(); err != nil {
		t.Errorf("Release of a Lock held through the closed LockDir = %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, "locks", lockName("held"))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Release left the lock file: %v", err)
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open before the LockDir, %d after Close and Release", before, after)
	}

	// Closed with no Lock held: at once.
	d, err = NewLockDir(filepath.Join(root, "locks"))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open before the LockDir, %d after Close", before, after)
	}
}

// openFDs counts this process's open descriptors where /proc lists them
// (Linux), and is -1 elsewhere.
func openFDs(t *testing.T) int {
	t.Helper()
	if runtime.GOOS != "linux" {
		return -1
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

func TestLockDir(t *testing.T) {
	root := lockTestDir(t)
	d, err := NewLockDir(filepath.Join(root, "locks", "sub"))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(d.Dir()); err != nil || !fi.IsDir() {
		t.Fatalf("NewLockDir did not create the directory: %v", err)
	}
	keys := []string{"job-42", "../../etc/passwd", "", "a/b\\c:d", "nul", "-rf", strings.Repeat("k", 300), "\x00\n\xff", "JOB-42", "job-42 "}
	seen := map[string]string{}
	for _, k := range keys {
		p := d.Path(k)
		if p != d.Path(k) {
			t.Errorf("Path(%q) not stable", k)
		}
		if filepath.Dir(p) != d.Dir() {
			t.Errorf("Path(%q) = %q, outside %q", k, p, d.Dir())
		}
		base := filepath.Base(p)
		if len(base) > 120 || strings.HasPrefix(base, "-") || strings.HasPrefix(base, ".") || !strings.HasSuffix(base, ".lock") {
			t.Errorf("Path(%q) has an unsafe name %q", k, base)
		}
		for _, c := range base {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
				t.Errorf("Path(%q) = %q holds %q", k, base, c)
			}
		}
		if prev, dup := seen[base]; dup {
			t.Errorf("keys %q and %q map to the same file %q", prev, k, base)
		}
		seen[base] = k
	}
	if base := filepath.Base(d.Path("job-42")); !strings.HasPrefix(base, "job-42-") {
		t.Errorf("Path(job-42) = %q, want a readable prefix", base)
	}
	l, err := d.TryAcquire("../../etc/passwd", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.TryAcquire("../../etc/passwd", nil); !errors.Is(err, ErrLocked) {
		t.Errorf("second TryAcquire of a key = %v, want ErrLocked", err)
	}
	if st, err := d.Inspect("../../etc/passwd"); err != nil || !st.Held {
		t.Errorf("Inspect(key) = %+v, %v", st, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := d.Acquire(ctx, "../../etc/passwd", nil); !errors.Is(err, ErrLocked) {
		t.Errorf("Acquire of a held key = %v, want ErrLocked", err)
	}
	l2, err := d.Acquire(context.Background(), "other", nil)
	if err != nil {
		t.Fatal(err)
	}
	l2.Release()
	l.Release()

	// Not a directory.
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := NewLockDir(file); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("NewLockDir(a file) = %v, want ErrUnsafePath", err)
	}
}

// TestTakeoverProtocol: a requester asks, the holder sees the request and
// releases, the requester gets the lock and removes its marker.
func TestTakeoverProtocol(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	marker := path + takeoverSuffix
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if ok, _ := l.TakeoverRequested(); ok {
		t.Fatal("takeover requested before anyone asked")
	}
	// This process asking for its own lock is no request.
	if err := RequestTakeover(path, time.Hour); err != nil {
		t.Fatal(err)
	}
	if ok, _ := l.TakeoverRequested(); ok {
		t.Error("the holder's own request counts")
	}
	if err := RequestTakeover(path, 0); err == nil {
		t.Error("RequestTakeover with ttl 0 succeeded")
	}

	// An expired request is ignored.
	short := startLockChild(t, "lock-takeover", lockPathEnv+"="+path, lockTTLEnv+"=1ms")
	short.expect(t, "requested")
	time.Sleep(5 * time.Millisecond)
	if ok, _ := l.TakeoverRequested(); ok {
		t.Error("an expired request counts")
	}
	short.finish(t)

	// A live request, then the whole protocol.
	req := startLockChild(t, "lock-takeover", lockPathEnv+"="+path, lockTTLEnv+"=1m", lockWaitEnv+"=1")
	req.expect(t, "requested")
	ok, who := l.TakeoverRequested()
	want, _ := Lookup(req.cmd.Process.Pid)
	if !ok || !who.Same(want) {
		t.Fatalf("TakeoverRequested() = %v, %v; want true, %v", ok, who, want)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if ok, _ := l.TakeoverRequested(); ok {
		t.Error("a released lock reports a request")
	}
	req.expect(t, "acquired")
	st, err := Inspect(path)
	if err != nil || st.Record.PID != req.cmd.Process.Pid {
		t.Errorf("after the takeover Inspect = %+v, %v", st, err)
	}
	if _, err := os.Lstat(marker); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the requester did not remove its marker: %v", err)
	}
	req.finish(t)
}

// TestTakeoverRequestFromExitedProcessIgnored: a request whose requester
// has exited is no request.
func TestTakeoverRequestFromExitedProcessIgnored(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	req := startLockChild(t, "lock-takeover", lockPathEnv+"="+path, lockTTLEnv+"=1h")
	req.expect(t, "requested")
	if ok, _ := l.TakeoverRequested(); !ok {
		t.Fatal("live request not seen")
	}
	req.finish(t)
	if ok, who := l.TakeoverRequested(); ok {
		t.Errorf("request of exited %v still counts", who)
	}
	// Corrupt markers are ignored too.
	for _, bad := range []string{"", "{", `{"v":1,"pid":0,"expires":"2999-01-01T00:00:00Z"}`, `{"v":1,"pid":-1,"expires":"2999-01-01T00:00:00Z"}`} {
		os.WriteFile(path+takeoverSuffix, []byte(bad), 0o600)
		if ok, _ := l.TakeoverRequested(); ok {
			t.Errorf("corrupt marker %q counts", bad)
		}
	}
}

// TestTakeoverNewerRequestSurvives: a request renamed into place while the
// new holder is removing its own, older marker is not removed with it.
func TestTakeoverNewerRequestSurvives(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	marker := path + takeoverSuffix
	if err := RequestTakeover(path, time.Hour); err != nil {
		t.Fatal(err)
	}
	newer := fmt.Sprintf(`{"v":1,"pid":%d,"requested":"2000-01-01T00:00:00Z","expires":"2999-01-01T00:00:00Z"}`+"\n", os.Getppid())
	testHookTakeoverRemoving = func() {
		tmp := marker + ".newer"
		if err := os.WriteFile(tmp, []byte(newer), 0o600); err != nil {
			t.Error(err)
		}
		if err := os.Rename(tmp, marker); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { testHookTakeoverRemoving = nil })
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	b, err := os.ReadFile(marker)
	if err != nil || string(b) != newer {
		t.Errorf("after acquiring, the marker is %q, %v; want the newer request %q", b, err, newer)
	}
	if _, err := os.Lstat(marker + ".done"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the marker moved aside was left behind: %v", err)
	}

	// Without a newer request, the holder's own marker goes.
	testHookTakeoverRemoving = nil
	l.Release()
	if err := RequestTakeover(path, time.Hour); err != nil {
		t.Fatal(err)
	}
	l2, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Release()
	if _, err := os.Lstat(marker); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the holder's own marker was not removed: %v", err)
	}
}
