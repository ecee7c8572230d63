package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// These tests hold the Linux per-OS functions to the contract rows of
// their doc comments (no process, EPERM, zombie, thread ID) where no other
// test does.

func init() {
	// contract-other-user, run as another user than the process at
	// SAFEPROBE_TEST_PID, which holds the lock at lockPathEnv, prints
	// "name=value" for what each per-OS function says of that process,
	// and of a zombie child of its own.
	childModes["contract-other-user"] = func() {
		pid, _ := strconv.Atoi(os.Getenv("SAFEPROBE_TEST_PID"))
		say := func(name string, v ...any) { fmt.Printf("%s=%s\n", name, strings.TrimSpace(fmt.Sprintln(v...))) }
		key, err := pathKey(pathOf(os.Getenv(lockPathEnv)))
		if err != nil {
			say("error", err)
			return
		}
		say("kill-eperm", errors.Is(syscall.Kill(pid, 0), syscall.EPERM))
		say("probe", fromProbe(Probe(pid)))
		saved := sys
		sys.pidfdOpen = func(int) (int, error) { return -1, unix.ENOSYS }
		say("probe-procfs", fromProbe(Probe(pid)))
		sys = saved
		p, _ := os.FindProcess(pid)
		say("checkprocess", CheckProcess(p))
		id, s, err := lookupState(pid)
		say("state", s, err)
		say("pidns", id.PIDNamespace)
		say("identity-probe", fromProbe(id.Probe()))
		say("uid", fromUID(processUID(pid)))
		held, known, err := pidHoldsLock(context.Background(), pid, key)
		say("holds", held, known, err)
		say("signal-eperm", errors.Is(signalVerified(pid, syscall.SIGTERM, func() error { return nil }), syscall.EPERM))
		z, err := exitedChild()
		if err != nil {
			say("error", err)
			return
		}
		held, known, err = pidHoldsLock(context.Background(), z.Process.Pid, key)
		say("own-zombie-holds", held, known, err)
		z.Wait()
	}
	// contract-thread-holder takes the lock at lockPathEnv, prints "tid
	// <id>" of a thread other than the main one, and holds the lock until
	// stdin closes.
	childModes["contract-thread-holder"] = func() {
		l, err := TryAcquire(os.Getenv(lockPathEnv), nil)
		if err != nil {
			fmt.Printf("error %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("tid %d\n", lockedThreadID())
		io.Copy(io.Discard, os.Stdin)
		l.Release()
	}
	// ns-zombie-probe, run as PID 1 of a PID namespace whose /proc is
	// another namespace's, probes a zombie child of its own through pidfds
	// and then without: "pidfd=<state> <err>" and "procfs=<state> <err>".
	childModes["ns-zombie-probe"] = func() {
		z, err := exitedChild()
		if err != nil {
			fmt.Printf("error=%v\n", err)
			return
		}
		fmt.Printf("pidfd=%v\n", fromProbe(Probe(z.Process.Pid)))
		sys.pidfdOpen = func(int) (int, error) { return -1, unix.ENOSYS }
		fmt.Printf("procfs=%v\n", fromProbe(Probe(z.Process.Pid)))
		z.Wait()
	}
}

// exitedChild starts a child that exits at once and returns once it has
// exited, not reaped: a zombie until the caller waits for it.
func exitedChild() (*exec.Cmd, error) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var info unix.Siginfo
	err := ignoringEINTR(func() error {
		return unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
	})
	if err != nil {
		cmd.Wait()
		return nil, err
	}
	return cmd, nil
}

func fromProbe(s State, err error) string { return fmt.Sprint(s, " ", err) }

func fromUID(uid uint32, err error) string { return fmt.Sprint(uid, " ", err) }

// childResults parses the "name=value" lines of a child's output.
func childResults(t *testing.T, out string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		name, value, _ := strings.Cut(line, "=")
		got[name] = value
	}
	if e, ok := got["error"]; ok {
		t.Fatalf("child: %s", e)
	}
	return got
}

// wantSignalNotFound checks that signalVerified of pid, with a verify that
// accepts, is a *ProcessError, not found, after verifies verify calls.
func wantSignalNotFound(t *testing.T, what string, pid, verifies int) {
	t.Helper()
	verified := 0
	err := signalVerified(pid, syscall.SIGTERM, func() error { verified++; return nil })
	var pe *ProcessError
	if !errors.As(err, &pe) || pe.State != NotFound || verified != verifies {
		t.Errorf("signalVerified(%s) = %v after %d verify calls; want a *ProcessError, not found, after %d", what, err, verified, verifies)
	}
}

// wantUnsignalled checks that the child still runs a moment later, then
// ends it through its stdin: it must exit cleanly, not by a signal.
func (c *lockChild) wantUnsignalled(t *testing.T) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("child %d was signalled: %v", c.cmd.Process.Pid, err)
	case <-time.After(300 * time.Millisecond):
	}
	c.stdin.Close()
	if err := <-exited; err != nil {
		t.Errorf("child %d: %v", c.cmd.Process.Pid, err)
	}
}

// TestContractsForAnotherUsersProcess: for a process it may not signal, a
// caller other than root gets Running from every probe and a state and
// identity from lookupState (without PID namespace, which needs ptrace
// access), its user ID from processUID, no answer from pidHoldsLock (for
// that process or its own zombie, whose /proc/<pid>/fd is root's), and
// signalVerified's EPERM with nothing sent.
func TestContractsForAnotherUsersProcess(t *testing.T) {
	requireRoot(t)
	path := filepath.Join(publicDir(t), "x.lock")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path)
	pid := holder.expect(t, "locked")
	got := childResults(t, runAsNobody(t, "contract-other-user", "SAFEPROBE_TEST_PID="+pid, lockPathEnv+"="+path))
	if got["kill-eperm"] != "true" {
		t.Fatalf("as nobody, kill(root's %s, 0) is not EPERM; the premise fails (%q)", pid, got)
	}
	for name, want := range map[string]string{
		"probe":            "running <nil>",
		"probe-procfs":     "running <nil>",
		"checkprocess":     "<nil>",
		"state":            "running <nil>",
		"pidns":            "0",
		"identity-probe":   "running <nil>",
		"uid":              "0 <nil>",
		"holds":            "false false <nil>",
		"signal-eperm":     "true",
		"own-zombie-holds": "false false <nil>",
	} {
		if got[name] != want {
			t.Errorf("as nobody, %s of root's process %s = %q; want %q", name, pid, got[name], want)
		}
	}
	if s, err := Probe(holder.cmd.Process.Pid); s != Running {
		t.Errorf("root's process after nobody's signalVerified: %v, %v; want it still running", s, err)
	}
}

// TestContractsForAZombie: a zombie keeps its identity and user ID, and
// reads Zombie through pidfds and /proc alike, but Running where neither
// pidfds nor its /proc entry can be had; it holds no lock, and
// signalVerified sends it nothing once verify accepts it.
func TestContractsForAZombie(t *testing.T) {
	requireRoot(t) // /proc/<pid>/fd of a zombie is root's
	zombie := startZombie(t)
	pid := zombie.Process.Pid
	euid := uint32(os.Geteuid())
	eachProbePath(t, func(t *testing.T) {
		id, s, err := lookupState(pid)
		if s != Zombie || err != nil || id.PID != pid || id.StartTime == 0 {
			t.Errorf("lookupState(zombie) = %v, %v, %v; want its identity, zombie", id, s, err)
		}
		if s, err := id.Probe(); s != Zombie || err != nil {
			t.Errorf("%v.Probe() = %v, %v; want zombie", id, s, err)
		}
		var pe *ProcessError
		if err := CheckProcess(zombie.Process); !errors.As(err, &pe) || pe.State != Zombie {
			t.Errorf("CheckProcess(zombie) = %v; want a *ProcessError, zombie", err)
		}
	})
	t.Run("hidden", func(t *testing.T) {
		saved := sys
		t.Cleanup(func() { sys = saved })
		sys.pidfdOpen = func(int) (int, error) { return -1, unix.ENOSYS }
		hideProc(saved)
		if s, err := Probe(pid); s != Running || err != nil {
			t.Errorf("Probe(zombie), without pidfds and hidden from /proc = %v, %v; want running, as the contract says", s, err)
		}
	})
	if uid, err := processUID(pid); uid != euid || err != nil {
		t.Errorf("processUID(zombie) = %d, %v; want %d", uid, err, euid)
	}
	if err := ownerRuns(pid, fileOwner(euid)); err != nil {
		t.Errorf("ownerRuns(zombie, its uid) = %v", err)
	}
	if err := ownerRuns(pid, fileOwner(euid+1)); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("ownerRuns(zombie, another uid) = %v; want ErrUnsafePath", err)
	}
	path := filepath.Join(t.TempDir(), "x.lock")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	key, err := pathKey(pathOf(path))
	if err != nil {
		t.Fatal(err)
	}
	if held, known, err := pidHoldsLock(context.Background(), pid, key); held || !known || err != nil {
		t.Errorf("pidHoldsLock(zombie) = %v, %v, %v; want false, known", held, known, err)
	}
	wantSignalNotFound(t, "zombie", pid, 1)
}

// TestContractsForAThreadID: a thread ID is no process to CheckProcess,
// lookupState, Identity.Probe and signalVerified (which does not even
// verify it, and signals nothing), while processUID, ownerRuns and
// pidHoldsLock answer for the thread: its user ID, and its process's
// descriptors, which the thread shares.
func TestContractsForAThreadID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	child := startLockChild(t, "contract-thread-holder", lockPathEnv+"="+path)
	tid, err := strconv.Atoi(child.expect(t, "tid"))
	if err != nil {
		t.Fatal(err)
	}
	boot, err := bootID()
	if err != nil {
		t.Fatal(err)
	}
	euid := uint32(os.Geteuid())
	eachProbePath(t, func(t *testing.T) {
		p, err := os.FindProcess(tid)
		if err != nil {
			t.Fatal(err)
		}
		var pe *ProcessError
		if err := CheckProcess(p); !errors.As(err, &pe) || pe.State != NotFound {
			t.Errorf("CheckProcess(FindProcess(tid %d)) = %v; want a *ProcessError, not found", tid, err)
		}
		if _, s, err := lookupState(tid); s != NotFound || !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("lookupState(tid) = %v, %v; want not found, os.ErrProcessDone", s, err)
		}
		if s, err := (Identity{PID: tid, StartTime: 1, BootID: boot}).Probe(); s != NotFound || err != nil {
			t.Errorf("Identity{tid}.Probe() = %v, %v; want not found", s, err)
		}
	})
	if uid, err := processUID(tid); uid != euid || err != nil {
		t.Errorf("processUID(tid) = %d, %v; want %d", uid, err, euid)
	}
	if err := ownerRuns(tid, fileOwner(euid)); err != nil {
		t.Errorf("ownerRuns(tid, its uid) = %v", err)
	}
	key, err := pathKey(pathOf(path))
	if err != nil {
		t.Fatal(err)
	}
	if held, known, err := pidHoldsLock(context.Background(), tid, key); !held || !known || err != nil {
		t.Errorf("pidHoldsLock(tid of the holder) = %v, %v, %v; want held, known", held, known, err)
	}
	wantSignalNotFound(t, "tid", tid, 0)
	child.wantUnsignalled(t)
}

// TestContractsForNoProcess: for a PID no process has, lookupState is not
// found, processUID and ownerRuns fail with fs.ErrNotExist (as /proc says),
// pidHoldsLock knows it holds nothing, and signalVerified is not found
// before it verifies.
func TestContractsForNoProcess(t *testing.T) {
	reaped := exec.Command("true")
	if err := reaped.Run(); err != nil {
		t.Fatal(err)
	}
	pid := reaped.Process.Pid
	eachProbePath(t, func(t *testing.T) {
		if _, s, err := lookupState(pid); s != NotFound || !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("lookupState(reaped) = %v, %v; want not found, os.ErrProcessDone", s, err)
		}
	})
	if _, err := processUID(pid); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("processUID(reaped) = %v; want fs.ErrNotExist", err)
	}
	if err := ownerRuns(pid, fileOwner(os.Geteuid())); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ownerRuns(reaped) = %v; want fs.ErrNotExist", err)
	}
	if held, known, err := pidHoldsLock(context.Background(), pid, fileKey{}); held || !known || err != nil {
		t.Errorf("pidHoldsLock(reaped) = %v, %v, %v; want false, known", held, known, err)
	}
	wantSignalNotFound(t, "reaped", pid, 0)
}

// TestZombieInForeignPIDNamespace: in a PID namespace of its own whose
// /proc is another namespace's, a zombie reads Zombie through its pidfd
// and, without pidfds, Running: nothing else there can tell.
func TestZombieInForeignPIDNamespace(t *testing.T) {
	cmd := childCommand(t, "ns-zombie-probe")
	inPIDNamespace(t, cmd, false)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ns-zombie-probe: %v (%s)", err, out)
	}
	got := childResults(t, string(out))
	if want := fmt.Sprint(Zombie, " <nil>"); got["pidfd"] != want {
		t.Errorf("through its pidfd, a zombie in a PID namespace with a foreign /proc is %q; want %q", got["pidfd"], want)
	}
	if want := fmt.Sprint(Running, " <nil>"); got["procfs"] != want {
		t.Errorf("without pidfds, a zombie in a PID namespace with a foreign /proc is %q; want %q, as the contract says", got["procfs"], want)
	}
}
