//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pidlint/pidlint/safeprobe"
	"golang.org/x/sys/unix"
)

func init() {
	// flock FILE RECORD: creates FILE (0600), flocks it, writes RECORD
	// into it ("bare" for this process's PID alone; otherwise as is, with
	// "$PID" replaced by this process's), prints "locked", and sleeps
	// until killed: a holder outside safeprobe, whose record says what
	// the test wants.
	helperModes["flock"] = func(args []string) int {
		f, err := os.OpenFile(args[0], os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil || unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
			return 101
		}
		rec := strings.ReplaceAll(args[1], "$PID", strconv.Itoa(os.Getpid()))
		if args[1] == "bare" {
			rec = fmt.Sprintf("%d\n", os.Getpid())
		}
		if _, err := f.WriteString(rec); err != nil {
			return 102
		}
		fmt.Println("locked")
		time.Sleep(time.Hour)
		return 0
	}
}

// startFlock starts the flock helper on lock with record and waits until
// it holds the lock; it is killed at the end of the test.
func startFlock(t *testing.T, lock, record string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(testExe(t), helperRole, "flock", lock, record)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 7)
	if n, _ := out.Read(buf); string(buf[:n]) != "locked\n" {
		t.Fatalf("flock helper: %q", buf[:n])
	}
	return cmd
}

// startBystander starts the hold helper outside any lock: a process whose
// PID a stale or lying record may name, which must get no signal.
func startBystander(t *testing.T) (pid int, report string) {
	t.Helper()
	report = filepath.Join(tempDir(t), "bystander")
	cmd := exec.Command(testExe(t), helperRole, "hold", report)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pid, _ = readReport(t, report)
	return pid, report
}

// TestRunExecsInPlace checks that run execs the command in its own place:
// the same PID, the lock's descriptor inherited and named in
// SAFEPROBE_LOCK_FD, and a record naming the command that stays true: its
// identity is the running process's, and the holder is verified by
// SignalOwner's checks (stop signals it).
func TestRunExecsInPlace(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	h := startHolder(t, lock, nil)
	if h.pid != h.cmd.Process.Pid {
		t.Fatalf("the command runs as pid %d, safeprobe run was pid %d: not exec'd in place", h.pid, h.cmd.Process.Pid)
	}
	st, err := safeprobe.Inspect(lock)
	if err != nil {
		t.Fatal(err)
	}
	rec := st.Record
	if !st.Held {
		// What the OS says, to tell a lost lock from a misread one.
		state, _ := safeprobe.Probe(h.pid)
		fdinfo, _ := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%s", h.pid, h.fd))
		again, err := safeprobe.Inspect(lock)
		t.Errorf("not held: pid %d is %v; its descriptor %s: %s; Inspect again: held %v (%v)", h.pid, state, h.fd, fdinfo, again.Held, err)
	}
	if !st.Held || rec.PID != h.pid || !rec.HasIdentity || rec.Program != filepath.Base(testExe(t)) {
		t.Fatalf("record %+v, held %v; want pid %d, program %s, an identity", rec, st.Held, h.pid, filepath.Base(testExe(t)))
	}
	now, err := safeprobe.Lookup(h.pid)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Identity.Same(now) {
		t.Errorf("the record's identity %v is not the exec'd process's %v", rec.Identity, now)
	}
	if s, err := rec.Identity.Probe(); s != safeprobe.Running {
		t.Errorf("the record's identity probes %v (%v), want running", s, err)
	}
	fd, err := strconv.Atoi(h.fd)
	if err != nil {
		t.Fatalf("SAFEPROBE_LOCK_FD=%q in the command", h.fd)
	}
	if runtime.GOOS == "linux" {
		var got, want unix.Stat_t
		if err := unix.Stat(fmt.Sprintf("/proc/%d/fd/%d", h.pid, fd), &got); err != nil {
			t.Fatal(err)
		}
		if err := unix.Stat(lock, &want); err != nil {
			t.Fatal(err)
		}
		if got.Ino != want.Ino || got.Dev != want.Dev {
			t.Errorf("descriptor %d of the command is not the lock file", fd)
		}
	}
	wantExit(t, sp(t, "stop", lock), stopStopped, fmt.Sprintf("pid %d released", h.pid))
	if sigs := signalsReceived(h.report); len(sigs) != 1 || sigs[0] != syscall.SIGTERM.String() {
		t.Errorf("the command got %q, want SIGTERM once", sigs)
	}
}

// TestRunKilledHolder checks that a SIGKILLed holder leaves a file that
// status reports as dead (LSB 1) and the next run takes without waiting.
func TestRunKilledHolder(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	h := startHolder(t, lock, nil)
	if err := h.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	h.wait(t)
	wantExit(t, sp(t, "status", lock), statusDead, "dead: the lock is free", fmt.Sprintf("pid %d", h.pid), "which is gone")
	// -nowait: the lock is free the moment the holder is gone, with no
	// wait for a stale file to age or be cleaned up.
	wantExit(t, sp(t, "run", "-lock", lock, "-nowait", "--", testExe(t), helperRole, "exit", "0"), 0)
}

// TestRunWait checks -wait: it gives up with 75 after the duration, and
// takes the lock once the holder lets it go.
func TestRunWait(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	h := startHolder(t, lock, nil)
	start := time.Now()
	r := sp(t, "run", "-lock", lock, "-wait", "200ms", "--", testExe(t), helperRole, "exit", "0")
	wantExit(t, r, runLocked, fmt.Sprintf("held by another process: pid %d", h.pid))
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("-wait 200ms gave up after %v", d)
	}
	waiter := launch(t, "run", "-lock", lock, "-wait", "30s", "--", testExe(t), helperRole, "exit", "0")
	time.Sleep(100 * time.Millisecond)
	h.cmd.Process.Signal(syscall.SIGTERM)
	h.wait(t)
	if r := waiter.wait(t); r.code != 0 {
		t.Errorf("run -wait 30s after the holder stopped: %v", r)
	}
}

// TestUnsafeLockPaths checks that a directory, a FIFO, a symlink and a
// path below a directory others may write are refused by every verb that
// takes a lock path, with the reason, and nothing is run.
func TestUnsafeLockPaths(t *testing.T) {
	dir := lockDir(t)
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "target"), link); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(dir, "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	ran := filepath.Join(dir, "ran")
	for path, why := range map[string]string{
		dir:                            "a directory",
		fifo:                           "a FIFO",
		link:                           "a symbolic link",
		filepath.Join(open, "app.pid"): "world-writable directory",
	} {
		r := sp(t, "run", "-lock", path, "--", testExe(t), helperRole, "hold", ran)
		wantExit(t, r, runFailed, "unsafe lock path", why)
		wantExit(t, sp(t, "status", path), statusUnknown, "unsafe lock path", why)
		wantExit(t, sp(t, "stop", path), stopRefused, "unsafe lock path", why)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("run ran the command on an unsafe lock path")
	}
}

// TestStopEscalates checks a holder that ignores SIGTERM: stop waits
// -timeout and exits 3 naming it; with -kill it SIGKILLs it after the
// timeout and exits 0.
func TestStopEscalates(t *testing.T) {
	lock := filepath.Join(lockDir(t), "app.pid")
	h := startHolder(t, lock, nil, "ignore")
	start := time.Now()
	wantExit(t, sp(t, "stop", "-timeout", "300ms", lock), stopStillHeld, fmt.Sprintf("pid %d", h.pid), "still holds")
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("stop gave up after %v, before -timeout 300ms", d)
	}
	r := sp(t, "stop", "-timeout", "300ms", "-kill", "-json", lock)
	wantExit(t, r, stopStopped, `"signals":["SIGTERM","SIGKILL"]`, "after SIGKILL")
	if got := h.wait(t); got.code != -1 {
		t.Errorf("the holder after stop -kill: %v, want killed by a signal", got)
	}
	// The second SIGTERM may be killed before it is recorded.
	if sigs := signalsReceived(h.report); len(sigs) < 1 || len(sigs) > 2 || sigs[0] != syscall.SIGTERM.String() {
		t.Errorf("the holder recorded %q, want SIGTERM (once or twice)", sigs)
	}
}

// TestStopSignalsOnlyTheOwner checks the records stop must not act on:
// a stale file naming a live process, a bare PID line held by its own
// process, and a record naming a running process that does not hold the
// lock. Nothing is signalled.
func TestStopSignalsOnlyTheOwner(t *testing.T) {
	dir := lockDir(t)
	victim, report := startBystander(t)
	id, err := safeprobe.Lookup(victim)
	if err != nil {
		t.Fatal(err)
	}
	full := func(pid int) string {
		return fmt.Sprintf("%d\n{\"v\":1,\"pid\":%d,\"start\":%d,\"boot\":%q}\n", pid, pid, id.StartTime, id.BootID)
	}

	stale := filepath.Join(dir, "stale.pid")
	if err := os.WriteFile(stale, []byte(full(victim)), 0o600); err != nil {
		t.Fatal(err)
	}
	wantExit(t, sp(t, "stop", stale), stopNotRunning, "the lock is free", "nothing signalled")

	bare := filepath.Join(dir, "bare.pid")
	startFlock(t, bare, "bare")
	wantExit(t, sp(t, "stop", bare), stopRefused, "without its start time", "nothing signalled")

	if runtime.GOOS == "linux" {
		// Only Linux names a flock's holder (/proc/PID/fdinfo); on macOS
		// and the BSDs a record in a file no other user may open is
		// believed, as the package doc says.
		lying := filepath.Join(dir, "lying.pid")
		startFlock(t, lying, full(victim))
		wantExit(t, sp(t, "stop", "-kill", "-timeout", "100ms", lying), stopRefused, "does not hold it")
	}

	if sigs := signalsReceived(report); len(sigs) != 0 {
		t.Errorf("the process the records name got %q", sigs)
	}
}

// TestStatusRecords checks status on a corrupt record (free: dead, LSB 1;
// held: unknown, 4) and on a held record whose process is gone.
func TestStatusRecords(t *testing.T) {
	dir := lockDir(t)
	corrupt := filepath.Join(dir, "corrupt.pid")
	if err := os.WriteFile(corrupt, []byte("-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantExit(t, sp(t, "status", corrupt), statusDead, "corrupt record")
	held := filepath.Join(dir, "held.pid")
	startFlock(t, held, "garbage\n")
	wantExit(t, sp(t, "status", "-json", held), statusUnknown, `"held":true`, `"corrupt":`)
	reused := filepath.Join(dir, "reused.pid")
	startFlock(t, reused, "$PID\n{\"v\":1,\"pid\":$PID,\"start\":1}\n")
	wantExit(t, sp(t, "status", reused), statusUnknown, "is held, but not by", "its PID now names another process")
}
