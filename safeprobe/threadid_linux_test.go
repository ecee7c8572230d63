package safeprobe

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func init() {
	// thread-id prints "tid <id>" of a thread other than the main one and
	// runs until stdin closes. SIGTERM kills it (no handler).
	childModes["thread-id"] = func() {
		fmt.Printf("tid %d\n", lockedThreadID())
		io.Copy(io.Discard, os.Stdin)
	}
	// ns-thread-probe, run as PID 1 of a PID namespace whose /proc is
	// another namespace's, probes one of its own thread IDs and itself,
	// through pidfds and then without: "<path> tid=<state>|<err>
	// self=<state>|<err>".
	childModes["ns-thread-probe"] = func() {
		tid := lockedThreadID()
		report := func(path string) {
			ts, terr := Probe(tid)
			ss, serr := Probe(os.Getpid())
			fmt.Printf("%s tid=%v|%v self=%v|%v\n", path, ts, terr, ss, serr)
		}
		report("pidfd")
		sys.pidfdOpen = func(int) (int, error) { return -1, unix.ENOSYS }
		report("procfs")
	}
}

// lockedThreadID returns the ID of a thread of this process that is not
// the main thread and lives until the process exits.
func lockedThreadID() int {
	tid := make(chan int)
	for {
		go func() {
			runtime.LockOSThread() // never unlocked: the thread stays this goroutine's
			tid <- unix.Gettid()
			select {}
		}()
		if id := <-tid; id != os.Getpid() {
			return id
		}
	}
}

// TestSignalOwnerUnverifiedRefusesThreadID: a bare record naming a thread
// ID of a live process is not a running process, so SignalOwnerWith
// refuses it even with AllowUnverified, and the process is not signalled
// (kill(2) of a TID signals its whole process). A zombie is refused too.
func TestSignalOwnerUnverifiedRefusesThreadID(t *testing.T) {
	child := startLockChild(t, "thread-id")
	tid, err := strconv.Atoi(child.expect(t, "tid"))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(tid, 0); err != nil {
		t.Fatalf("kill(tid %d, 0) = %v; the premise is that it succeeds", tid, err)
	}
	unverified := &SignalOptions{AllowUnverified: true}
	path := holdRecord(t, Record{PID: tid})
	st, err := Inspect(path)
	if err != nil || st.State != NotFound {
		t.Fatalf("Inspect(record of tid %d) = %v, %v; want not found", tid, st.State, err)
	}
	var pe *ProcessError
	if err := SignalOwnerWith(path, syscall.SIGTERM, unverified); !errors.As(err, &pe) || pe.State != NotFound {
		t.Errorf("SignalOwnerWith(bare record of tid %d, AllowUnverified) = %v; want not found", tid, err)
	}
	child.wantUnsignalled(t)

	zombie := startZombie(t)
	zpath := holdRecord(t, Record{PID: zombie.Process.Pid})
	if err := SignalOwnerWith(zpath, syscall.SIGTERM, unverified); !errors.As(err, &pe) || pe.State != Zombie {
		t.Errorf("SignalOwnerWith(bare record of a zombie, AllowUnverified) = %v; want zombie", err)
	}
}

// TestThreadInForeignPIDNamespaceIsNotAProcess: in a PID namespace of its
// own without its own /proc (unshare --pid --fork, no --mount-proc),
// pidfd_open of a thread ID fails with ENOENT, and the /proc there is the
// parent namespace's: a thread must still read as not found, through
// pidfds and without, and the process itself as running.
func TestThreadInForeignPIDNamespaceIsNotAProcess(t *testing.T) {
	cmd := childCommand(t, "ns-thread-probe")
	inPIDNamespace(t, cmd, false)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ns-thread-probe: %v (%s)", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Fatalf("child says %q", out)
	}
	for i, path := range []string{"pidfd", "procfs"} {
		want := fmt.Sprintf("%s tid=%v|<nil> self=%v|<nil>", path, NotFound, Running)
		if lines[i] != want {
			t.Errorf("in a PID namespace with a foreign /proc: %q; want %q", lines[i], want)
		}
	}
}
