//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func init() {
	// lock-exec takes the lock with the program name "before-exec" and
	// execs this test binary in mode lock-exec-report, handing it the
	// lock.
	childModes["lock-exec"] = func() {
		l, err := TryAcquire(os.Getenv(lockPathEnv), &LockOptions{Program: "before-exec"})
		if err == nil {
			exe, _ := os.Executable()
			err = l.Exec(exe, []string{exe}, withEnv(os.Environ(), childEnv, "lock-exec-report"))
		}
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	// lock-exec-report prints "exec'd <pid> <SAFEPROBE_LOCK_FD>" and
	// waits for stdin to close.
	childModes["lock-exec-report"] = func() {
		fmt.Printf("exec'd %d %s\n", os.Getpid(), os.Getenv(LockFDEnv))
		io.Copy(io.Discard, os.Stdin)
	}
}

// TestLockExec checks that the program Exec runs holds the lock through
// the inherited descriptor SAFEPROBE_LOCK_FD names, and that the record
// stays true: its PID and identity are the exec'd process's, its program
// name the exec'd program's, and SignalOwner verifies it as the holder.
func TestLockExec(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "exec.pid")
	child := startLockChild(t, "lock-exec", lockPathEnv+"="+path)
	f := strings.Fields(child.expect(t, "exec'd "))
	pid, _ := strconv.Atoi(f[0])
	if pid != child.cmd.Process.Pid || len(f) != 2 {
		t.Fatalf("exec'd %v, want pid %d and a descriptor", f, child.cmd.Process.Pid)
	}
	st, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	if !st.Held || st.Record.PID != pid || st.Record.Program != filepath.Base(exe) || !st.Record.HasIdentity {
		t.Fatalf("after exec: held %v, record %+v; want pid %d, program %s", st.Held, st.Record, pid, filepath.Base(exe))
	}
	if s, err := st.Record.Identity.Probe(); s != Running {
		t.Errorf("the record's identity probes %v (%v) after exec", s, err)
	}
	if now, err := Lookup(pid); err != nil || !now.Same(st.Record.Identity) {
		t.Errorf("the exec'd process is %v (%v), the record says %v", now, err, st.Record.Identity)
	}
	// Signal 0: verified as SignalOwner verifies, sent nothing.
	if err := SignalOwner(path, syscall.Signal(0)); err != nil {
		t.Errorf("SignalOwner does not verify the exec'd holder: %v", err)
	}
	child.finish(t)
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("the lock outlived the exec'd program: %v", err)
	}
	l.Release()
}

// TestLockExecFails checks that a failed Exec returns with the lock still
// held and its descriptor close-on-exec again.
func TestLockExecFails(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "exec.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	err = l.Exec(filepath.Join(filepath.Dir(path), "no-such-program"), []string{"x"}, nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Exec of a missing program: %v, want fs.ErrNotExist", err)
	}
	if err := l.Check(); err != nil {
		t.Errorf("the lock after a failed Exec: %v", err)
	}
	flags, err := unix.FcntlInt(uintptr(l.f.(*unixLockFile).fd), unix.F_GETFD, 0)
	if err != nil || flags&unix.FD_CLOEXEC == 0 {
		t.Errorf("descriptor flags after a failed Exec: %#x (%v), want FD_CLOEXEC", flags, err)
	}
	if l.Owner().Program != "no-such-program" {
		t.Errorf("record program %q, want the program Exec tried", l.Owner().Program)
	}
	l.Release()
	if err := l.Exec("/bin/true", []string{"true"}, nil); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Exec after Release: %v, want ErrNotHeld", err)
	}
}

// TestSignalOwnerOnlyOwner checks SignalOptions.Owner: the holder is
// signalled only if it is the process named.
func TestSignalOwnerOnlyOwner(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "owner.pid")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path)
	holder.expect(t, "locked ")
	st, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	// Another process that had the holder's PID: its start time, and
	// where the kernel names processes by a serial, its serial differ.
	other := st.Record.Identity
	other.StartTime++
	if other.Serial != 0 {
		other.Serial++
	}
	if err := SignalOwnerWith(path, syscall.Signal(0), &SignalOptions{Owner: &other}); !errors.Is(err, ErrNotHeld) {
		t.Errorf("SignalOwnerWith(Owner: another process): %v, want ErrNotHeld", err)
	}
	if err := SignalOwnerWith(path, syscall.Signal(0), &SignalOptions{Owner: &st.Record.Identity}); err != nil {
		t.Errorf("SignalOwnerWith(Owner: the holder): %v", err)
	}
}

// TestInspectTrusted checks that InspectTrusted refuses a lock path below
// a directory others may write, where InspectContext reads it.
func TestInspectTrusted(t *testing.T) {
	dir := filepath.Join(lockTestDir(t), "open")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "app.pid")
	if err := os.WriteFile(path, []byte("1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := InspectTrusted(context.Background(), path); err != nil {
		t.Fatalf("InspectTrusted of a safe path: %v", err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Inspect(path); err != nil {
		t.Errorf("Inspect: %v", err)
	}
	if _, err := InspectTrusted(context.Background(), path); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("InspectTrusted below a world-writable directory: %v, want ErrUnsafePath", err)
	}
}
