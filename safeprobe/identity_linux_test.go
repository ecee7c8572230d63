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

	"golang.org/x/sys/unix"
)

func init() {
	// signal-owner sends SIGUSR1 to the holder of the lock at lockPathEnv
	// and prints "result <error>".
	childModes["signal-owner"] = func() {
		fmt.Printf("result %v\n", SignalOwner(os.Getenv(lockPathEnv), syscall.SIGUSR1))
	}
}

// needPidfs skips unless pidfds live on pidfs (Linux 6.9 and later), where
// identities carry a serial.
func needPidfs(t *testing.T) {
	t.Helper()
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		t.Skipf("pidfd_open: %v", err)
	}
	defer unix.Close(fd)
	var fs unix.Statfs_t
	if err := unix.Fstatfs(fd, &fs); err != nil || fs.Type != pidfsMagic {
		t.Skipf("pidfds are not on pidfs (f_type %#x, %v)", fs.Type, err)
	}
}

// TestIdentityNamesSerialAndPIDNamespace: on pidfs each process has its own
// serial, the inode of its pidfd, stable while it lives; the PID namespace
// is the inode /proc/<pid>/ns/pid names.
func TestIdentityNamesSerialAndPIDNamespace(t *testing.T) {
	needPidfs(t)
	self, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	var ns unix.Stat_t
	if err := unix.Stat("/proc/self/ns/pid", &ns); err != nil {
		t.Fatal(err)
	}
	if self.Serial == 0 || self.PIDNamespace != ns.Ino {
		t.Errorf("Self = %v; want a serial and pidns %d", self, ns.Ino)
	}
	a, b := startSleeper(t).Process.Pid, startSleeper(t).Process.Pid
	ida, err := Lookup(a)
	if err != nil {
		t.Fatal(err)
	}
	idb, err := Lookup(b)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Lookup(a)
	if err != nil {
		t.Fatal(err)
	}
	if ida.Serial == 0 || ida.Serial == idb.Serial || ida.Serial == self.Serial || again != ida {
		t.Errorf("serials: self %d, child %d (then %d), child %d; want each its own, stable", self.Serial, ida.Serial, again.Serial, idb.Serial)
	}
	if !strings.Contains(ida.String(), fmt.Sprintf("serial %d, pidns %d", ida.Serial, ida.PIDNamespace)) {
		t.Errorf("String() = %q does not show the serial and pidns", ida)
	}
	// Where both have a serial it decides, as no two processes of a boot
	// share one: a start time read in another time namespace differs.
	// Without one, the start time and the namespace do.
	for _, c := range []struct {
		id   Identity
		want State
	}{
		{Identity{PID: a, StartTime: ida.StartTime + 100, BootID: ida.BootID, Serial: ida.Serial, PIDNamespace: ida.PIDNamespace}, Running},
		{Identity{PID: a, StartTime: ida.StartTime, BootID: ida.BootID, Serial: ida.Serial + 1, PIDNamespace: ida.PIDNamespace}, Reused},
		{Identity{PID: a, StartTime: ida.StartTime + 1, BootID: ida.BootID, PIDNamespace: ida.PIDNamespace}, Reused},
		// Another PID namespace's: its PID says nothing here.
		{Identity{PID: a, StartTime: ida.StartTime, BootID: ida.BootID, PIDNamespace: ida.PIDNamespace + 1}, Unknown},
	} {
		if s, err := c.id.Probe(); s != c.want || (err != nil) != (c.want == Unknown) || err != nil && !errors.Is(err, ErrOtherPIDNamespace) {
			t.Errorf("%v.Probe() = %v, %v; want %v (the process is %v)", c.id, s, err, c.want, ida)
		}
	}
	// The owner record carries both.
	path := filepath.Join(lockTestDir(t), "s.lock")
	l, err := TryAcquire(path, &LockOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	text := readFile(t, path)
	rec, err := parseRecord([]byte(text))
	if err != nil || rec.Identity != self || !strings.Contains(text, fmt.Sprintf(`"serial":%d,"pidns":%d`, self.Serial, self.PIDNamespace)) {
		t.Errorf("owner record %q (%+v, %v); want this process's serial and pidns", text, rec.Identity, err)
	}
}

// TestIdentityPIDReuseWithinOneTick hands a dead child's PID to a new
// process, through ns_last_pid, fast enough that both start in the same
// clock tick: the start time is then equal, and only the serial tells the
// newcomer from the process the identity named.
func TestIdentityPIDReuseWithinOneTick(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to write ns_last_pid")
	}
	needPidfs(t)
	sameTick := 0
	for try := 0; try < 40 && sameTick < 5; try++ {
		first := exec.Command("sleep", "600")
		if err := first.Start(); err != nil {
			t.Fatal(err)
		}
		pid := first.Process.Pid
		old, err := Lookup(pid)
		first.Process.Kill()
		first.Wait()
		if err != nil {
			t.Fatal(err)
		}
		reuser := reusePID(t, pid)
		if reuser == nil {
			continue
		}
		now, err := Lookup(pid)
		if err != nil {
			t.Fatal(err)
		}
		if now.StartTime == old.StartTime {
			sameTick++
			if old.Same(now) {
				t.Errorf("%v and %v, two processes, are the Same", old, now)
			}
			if s, err := old.Probe(); s != Reused || err != nil {
				t.Errorf("try %d: PID %d reused in the same tick: old %v.Probe() = %v, %v; want reused (now %v)", try, pid, old, s, err, now)
			}
			if s, err := now.Probe(); s != Running || err != nil {
				t.Errorf("the newcomer %v.Probe() = %v, %v; want running", now, s, err)
			}
		} // else a tick passed: the start time alone tells them apart
		reuser.Process.Kill()
		reuser.Wait()
	}
	if sameTick == 0 {
		t.Skip("no PID was reused within one clock tick")
	}
	t.Logf("%d reuses within one tick", sameTick)
}

// inPIDNamespace makes cmd run as PID 1 of a new PID namespace, with a
// /proc of its own when mountProc, killed with its unshare.
func inPIDNamespace(t *testing.T, cmd *exec.Cmd, mountProc bool) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root for a PID namespace")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare")
	}
	args := []string{unshare, "--pid", "--fork", "--kill-child"}
	if mountProc {
		args = append(args, "--mount-proc")
	}
	cmd.Args = append(args, cmd.Path)
	cmd.Path = unshare
}

// nsChild is a lock-hold child run as PID 1 of its own PID namespace.
type nsChild struct {
	*lockChild
	path string
	id   Identity // from its owner record
}

// startNSHolder starts the child; ready waits until it holds the lock.
func startNSHolder(t *testing.T, path string) *nsChild {
	t.Helper()
	cmd := childCommand(t, "lock-hold", lockPathEnv+"="+path, lockSignalEnv+"=1")
	inPIDNamespace(t, cmd, true)
	return &nsChild{lockChild: startChildCommand(t, cmd), path: path}
}

func (c *nsChild) ready(t *testing.T) {
	t.Helper()
	if pid := c.expect(t, "locked"); pid != "1" {
		t.Fatalf("holder is pid %s in its namespace, want 1", pid)
	}
	c.expect(t, "signals ready")
	rec, err := parseRecord([]byte(readFile(t, c.path)))
	if err != nil || !rec.HasIdentity {
		t.Fatalf("record of the holder: %+v, %v", rec, err)
	}
	c.id = rec.Identity
}

// hostPID returns the PID, in this namespace, of the child's PID 1: the
// child of its unshare.
func (c *nsChild) hostPID(t *testing.T) int {
	t.Helper()
	pid := c.cmd.Process.Pid
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) != 1 {
		t.Fatalf("unshare %d has children %q", pid, f)
	}
	n, _ := strconv.Atoi(f[0])
	return n
}

// TestPIDNamespacePID1sAreDistinct starts two holders, each PID 1 of its
// own PID namespace (two containers' init), in the same clock tick: their
// PIDs, start times and boots are equal, yet they are two processes, and
// from inside one namespace SignalOwner on the other's lock must not
// signal its own PID 1.
func TestPIDNamespacePID1sAreDistinct(t *testing.T) {
	if _, err := exec.LookPath("nsenter"); err != nil {
		t.Skip("no nsenter")
	}
	dir := lockTestDir(t)
	var a, b *nsChild
	for try := 0; ; try++ {
		if try == 20 {
			t.Skip("never started two namespaces' PID 1 in one clock tick")
		}
		a = startNSHolder(t, filepath.Join(dir, fmt.Sprintf("a%d.lock", try)))
		b = startNSHolder(t, filepath.Join(dir, fmt.Sprintf("b%d.lock", try)))
		a.ready(t)
		b.ready(t)
		if a.id.StartTime == b.id.StartTime {
			break
		}
		t.Logf("started at ticks %d and %d", a.id.StartTime, b.id.StartTime)
		a.finish(t)
		b.finish(t)
	}
	if a.id.Same(b.id) {
		t.Errorf("the two namespaces' PID 1 have the Same identity %v", a.id)
	}
	if a.id.PIDNamespace == 0 || a.id.PIDNamespace == b.id.PIDNamespace {
		t.Errorf("PID namespaces %d and %d; want two", a.id.PIDNamespace, b.id.PIDNamespace)
	}

	// From b's namespace, as its PID 2, signal a's holder.
	cmd := childCommand(t, "signal-owner", lockPathEnv+"="+a.path)
	nsenter, _ := exec.LookPath("nsenter")
	cmd.Args = []string{nsenter, "--target", strconv.Itoa(b.hostPID(t)), "--pid", "--mount", "--", cmd.Path}
	cmd.Path = nsenter
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("signal-owner in b's namespace: %v (%s)", err, out)
	}
	got := strings.TrimSpace(string(out))
	if !strings.HasPrefix(got, "result ") || got == "result <nil>" || !strings.Contains(got, "another process") {
		t.Errorf("in b's namespace, SignalOwner(a's lock) says %q; want a refusal (pid 1 there is another process)", got)
	}
	for _, c := range []*nsChild{a, b} {
		select {
		case line := <-c.lines:
			t.Errorf("a namespace's PID 1 got a signal: %q", line)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// TestIdentityOldRecordStillVerifies: a record written before identities
// had a serial and a PID namespace still names its process (Probe says
// running, SignalOwner signals it) and still tells a reused PID.
func TestIdentityOldRecordStillVerifies(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "h.lock")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path, lockSignalEnv+"=1")
	holder.expect(t, "locked")
	holder.expect(t, "signals ready")
	pid := holder.cmd.Process.Pid
	id, err := Lookup(pid)
	if err != nil {
		t.Fatal(err)
	}
	old := func(start uint64) string { // the JSON of formatRecord before serial and pidns
		return fmt.Sprintf("%d\n{\"v\":1,\"pid\":%d,\"start\":%d,\"boot\":%q,\"host\":\"h\",\"prog\":\"d\"}\n", pid, pid, start, id.BootID)
	}
	rec, err := parseRecord([]byte(old(id.StartTime)))
	if err != nil || rec.Identity.Serial != 0 || rec.Identity.PIDNamespace != 0 {
		t.Fatalf("old record: %+v, %v", rec, err)
	}
	if s, err := rec.Identity.Probe(); s != Running || err != nil {
		t.Errorf("old record's identity: Probe = %v, %v; want running", s, err)
	}
	if !rec.Identity.Same(id) || !id.Same(rec.Identity) {
		t.Errorf("old %v and new %v of one process are not the Same", rec.Identity, id)
	}
	// The holder's own lock file, rewritten as an old holder wrote it.
	if err := os.WriteFile(path, []byte(old(id.StartTime)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SignalOwner(path, syscall.SIGUSR1); err != nil {
		t.Errorf("SignalOwner(old record) = %v", err)
	}
	holder.expect(t, "got user defined signal 1")

	reused := filepath.Join(lockTestDir(t), "reused.lock")
	holdRaw(t, reused, old(id.StartTime-1))
	var pe *ProcessError
	if err := SignalOwner(reused, syscall.SIGUSR1); !errors.As(err, &pe) || pe.State != Reused {
		t.Errorf("SignalOwner(old record, earlier start) = %v; want reused", err)
	}
	holder.finish(t)
}
