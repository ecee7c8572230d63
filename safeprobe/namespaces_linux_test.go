package safeprobe

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Holders and requesters in time and PID namespaces of their own, seen
// from outside, and a holder that cannot read its own identity.

// inTimeNamespace makes cmd run in a time namespace of its own whose boot
// clock is ahead by boottime seconds (unshare --time --boottime), as the
// child of an unshare that dies with it.
func inTimeNamespace(t *testing.T, cmd *exec.Cmd, boottime int) {
	t.Helper()
	requireRoot(t)
	unshare := facility(t, "unshare", "util-linux")
	if out, err := runCmd(unshare, "--time", "--boottime", "1", "--fork", "true"); err != nil {
		unavailable(t, "no time namespaces here (unshare --time --boottime: %v, %s)", err, out)
	}
	cmd.Args = append([]string{unshare, "--time", "--boottime", strconv.Itoa(boottime), "--fork", "--kill-child", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = unshare
}

// unshareChild returns the PID of the one child of the unshare that cmd
// started: the process in the new namespace.
func unshareChild(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	pid := cmd.Process.Pid
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	f := strings.Fields(string(b))
	if err != nil || len(f) != 1 {
		t.Fatalf("unshare %d has children %q (%v)", pid, f, err)
	}
	n, _ := strconv.Atoi(f[0])
	return n
}

// TestTimeNamespaceHolder: a daemon started under `unshare --time
// --boottime 100000` reads its own start time 100,000 s later than anyone
// outside reads it. Its record must still name it for them (Inspect says
// running; SignalOwner signals it), with its serial and, for a record
// without one (a kernel without pidfs), by its start time alone; and a
// takeover request made inside must reach a holder outside.
func TestTimeNamespaceHolder(t *testing.T) {
	const ahead = 100000
	path := filepath.Join(t.TempDir(), "d.lock")
	cmd := childCommand(t, "lock-hold", lockPathEnv+"="+path, lockSignalEnv+"=1")
	inTimeNamespace(t, cmd, ahead)
	holder := startChildCommand(t, cmd)
	holder.expect(t, "locked")
	holder.expect(t, "signals ready")
	pid := unshareChild(t, cmd)
	b, err := os.ReadFile(procPath(pid, "timens_offsets"))
	if err != nil || !strings.Contains(string(b), strconv.Itoa(ahead)) {
		t.Fatalf("the holder's time namespace: %q, %v", b, err)
	}

	st, err := Inspect(path)
	if err != nil || !st.Held || st.Record.PID != pid || st.State != Running {
		t.Errorf("Inspect of a holder in a time namespace = %+v, %v; want held by the running pid %d", st, err, pid)
	}
	noSerial := st.Record.Identity
	noSerial.Serial = 0
	if s, err := noSerial.Probe(); s != Running {
		t.Errorf("%v.Probe(), a record without a serial, from outside = %v, %v; want running", noSerial, s, err)
	}
	if err := SignalOwner(path, syscall.SIGUSR1); err != nil {
		t.Errorf("SignalOwner of a holder in a time namespace = %v", err)
	} else {
		holder.expect(t, "got user defined signal 1")
	}

	// A request from inside, to a holder outside.
	mine := filepath.Join(t.TempDir(), "t.lock")
	l, err := TryAcquire(mine, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	req := childCommand(t, "lock-takeover", lockPathEnv+"="+mine, lockTTLEnv+"=1h")
	inTimeNamespace(t, req, ahead)
	requester := startChildCommand(t, req)
	requester.expect(t, "requested")
	if ok, who := l.TakeoverRequested(); !ok || who.PID != unshareChild(t, req) {
		t.Errorf("a takeover request made in a time namespace: TakeoverRequested = %v, %v; want it seen", ok, who)
	}
	requester.finish(t)
}

// TestPIDNamespaceHolderWithItsOwnProc: a holder is PID 1 of its own PID
// namespace with a /proc of its own (a container). From the host its
// record's PID is the host's init: Inspect must not call it exited or
// reused, but held by a process in another PID namespace, and SignalOwner
// must signal nothing.
func TestPIDNamespaceHolderWithItsOwnProc(t *testing.T) {
	holder := startNSHolder(t, filepath.Join(t.TempDir(), "c.lock"))
	holder.ready(t)
	wantOtherNamespace(t, holder.path, holder.lockChild)
}

// TestPIDNamespaceHolderSharingProc: a holder in a PID namespace of its
// own that shares the host's /proc, where /proc/<pid> is not itself,
// recorded a bare "1" with no identity. It must record its identity (read
// through /proc/self, which names it there), PID namespace included, and
// the host then say as above.
func TestPIDNamespaceHolderSharingProc(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.lock")
	cmd := childCommand(t, "lock-hold", lockPathEnv+"="+path, lockSignalEnv+"=1")
	inPIDNamespace(t, cmd, false)
	holder := startChildCommand(t, cmd)
	if pid := holder.expect(t, "locked"); pid != "1" {
		t.Fatalf("holder is pid %s in its namespace, want 1", pid)
	}
	holder.expect(t, "signals ready")
	rec, err := parseRecord([]byte(readFile(t, path)))
	if err != nil || !rec.HasIdentity || rec.Identity.PIDNamespace == 0 || rec.Identity.Serial == 0 && rec.Identity.StartTime == 0 {
		t.Errorf("record of a holder sharing the host's /proc: %+v, %v; want an identity with its PID namespace", rec, err)
	}
	wantOtherNamespace(t, path, holder)
}

// wantOtherNamespace checks what the host says of a lock held in another
// PID namespace: held, by a process there, in State Unknown, not stale;
// TryAcquire finds it locked; SignalOwner refuses and signals nothing.
func wantOtherNamespace(t *testing.T, path string, holder *lockChild) {
	t.Helper()
	st, err := Inspect(path)
	if err != nil || !st.Held || st.State != Unknown || !st.OtherPIDNamespace || !strings.Contains(st.Reason, "held by a process in another PID namespace") {
		t.Errorf("Inspect from the host = %+v, %v; want held by a process in another PID namespace, state unknown", st, err)
	}
	if s, err := st.Record.Identity.Probe(); s != Unknown || !errors.Is(err, ErrOtherPIDNamespace) {
		t.Errorf("the record's identity, probed from the host: %v, %v; want unknown, ErrOtherPIDNamespace", s, err)
	}
	if l, err := TryAcquire(path, nil); !errors.Is(err, ErrLocked) {
		if err == nil {
			l.Release()
		}
		t.Errorf("TryAcquire from the host = %v; want ErrLocked", err)
	}
	if err := SignalOwner(path, syscall.SIGUSR1); !errors.Is(err, ErrOtherPIDNamespace) || !strings.Contains(err.Error(), "another process") {
		t.Errorf("SignalOwner from the host = %v; want ErrOtherPIDNamespace", err)
	}
	select {
	case line := <-holder.lines:
		t.Errorf("the holder in another PID namespace was signalled: %q", line)
	case <-time.After(200 * time.Millisecond):
	}
}

func init() {
	// lock-few-fds takes the lock at lockPathEnv.<n> with n descriptors
	// free in a full table, for n from 0 to 6, and prints "free=<n>
	// ok=<taken> identity=<its record has one> noid=<why not> err=<error>".
	childModes["lock-few-fds"] = func() {
		withFreeFDs(6, func(free int) {
			l, err := TryAcquire(fmt.Sprintf("%s.%d", os.Getenv(lockPathEnv), free), &LockOptions{NoSync: true})
			var rec Record
			if err == nil {
				rec = l.Owner()
				l.Release()
			}
			fmt.Printf("free=%d ok=%v identity=%v noid=%q err=%v\n", free, err == nil, rec.HasIdentity, rec.NoIdentity, err)
		})
	}
}

// TestLockRecordNeverLacksIdentitySilently: with few descriptors free
// (ulimit -n 5), reading this process's identity fails (pidfd_open, or
// /proc/self/stat, EMFILE) while the lock itself can still be taken, and
// the lock was taken with a record that had no identity, and said nothing
// of it. Each TryAcquire either fails saying why or writes an identity.
func TestLockRecordNeverLacksIdentitySilently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	out, err := childCommand(t, "lock-few-fds", lockPathEnv+"="+path).Output()
	if err != nil {
		t.Fatalf("lock-few-fds: %v (%s)", err, out)
	}
	taken := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		t.Log(line)
		switch {
		case strings.Contains(line, " ok=true identity=true "):
			taken++
		case strings.Contains(line, " ok=true identity=false noid=\"\""):
			t.Errorf("%s: the lock was taken with a record without an identity, which does not say why", line)
		case strings.Contains(line, " ok=true"):
			taken++
		case !strings.Contains(line, "too many open files"):
			t.Errorf("%s: an error that does not say the table is full", line)
		}
	}
	if taken == 0 {
		t.Errorf("no TryAcquire succeeded even with 6 descriptors free")
	}
}
