package safeprobe

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func init() {
	// Probe the PID in SAFEPROBE_TEST_PID and print the state and kill's
	// own answer, from a process of another user.
	childModes["probe-pid"] = func() {
		pid, _ := strconv.Atoi(os.Getenv("SAFEPROBE_TEST_PID"))
		s, err := Probe(pid)
		fmt.Printf("%v|%v|%v\n", s, err, syscall.Kill(pid, 0))
	}
	// Print what safeprobe says of this process and of PID 1, which in a
	// new PID namespace is this process.
	childModes["identity"] = func() {
		self, selfErr := Self()
		var ns unix.Stat_t
		nsErr := unix.Stat("/proc/self/ns/pid", &ns)
		_, lookupErr := Lookup(os.Getpid())
		fmt.Printf("pid=%d self=%v ownns=%v lookup=%v alive=%v\n", os.Getpid(), selfErr,
			nsErr == nil && self.PID == os.Getpid() && self.PIDNamespace == ns.Ino && self.StartTime != 0, lookupErr, Alive(os.Getpid()))
	}
	// End the main thread alone (exit(2), not exit_group) and run on in
	// another thread until stdin closes: /proc then shows the process as
	// a zombie, the main thread's state. With lockPathEnv, take that lock
	// first (with lock-hold's hooks), and release it when stdin closes.
	childModes["leader-exit"] = func() {
		if unix.Gettid() != os.Getpid() {
			fmt.Println("not on the main thread")
			return
		}
		var l *Lock
		if path := os.Getenv(lockPathEnv); path != "" {
			var err error
			if l, err = TryAcquire(path, nil); err != nil {
				fmt.Printf("error %v\n", err)
				os.Exit(1)
			}
			lockChildHooks(l)
		}
		go func() {
			io.Copy(io.Discard, os.Stdin)
			if l != nil {
				l.Release()
			}
			os.Exit(0)
		}()
		fmt.Println("ready")
		// Through Syscall, so that the runtime hands this thread's P on.
		syscall.Syscall(unix.SYS_EXIT, 0, 0, 0)
	}
	if os.Getenv(childEnv) == "leader-exit" {
		runtime.LockOSThread() // in init: the main goroutine stays on the main thread
	}
}

// waitLeaderExited waits until the main thread of pid has exited (its
// state in /proc is Z) while the process runs on.
func waitLeaderExited(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		st, _, err := readStatus(pid)
		if err == nil && st == 'Z' {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the main thread of %d did not exit: state %q, %v", pid, st, err)
		}
		time.Sleep(time.Millisecond)
	}
}

// startSleeper starts a child that runs until the test ends.
func startSleeper(t *testing.T, argv ...string) *exec.Cmd {
	t.Helper()
	if len(argv) == 0 {
		argv = []string{"sleep", "600"}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd
}

// startZombie starts a child that exits at once and is not reaped until
// the test ends, and waits until it has exited.
func startZombie(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, _, err := readStatus(cmd.Process.Pid)
		if err == nil && st == 'Z' {
			return cmd
		}
		if time.Now().After(deadline) {
			t.Fatalf("child %d did not become a zombie: state %q, %v", cmd.Process.Pid, st, err)
		}
		time.Sleep(time.Millisecond)
	}
}

// otherThread returns the ID of a live thread of this process that is not
// the main thread, held alive until the test ends.
func otherThread(t *testing.T) int {
	t.Helper()
	tid := make(chan int)
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		tid <- unix.Gettid()
		<-done
	}()
	t.Cleanup(func() { close(done) })
	id := <-tid
	if id == os.Getpid() {
		t.Skip("the locked goroutine runs on the main thread")
	}
	return id
}

// withoutPidfd makes the probe take its kill + procfs path, as on kernels
// before 5.3 and in sandboxes that refuse pidfd_open.
func withoutPidfd(t *testing.T) {
	t.Helper()
	saved := sys
	sys.pidfdOpen = func(int) (int, error) { return -1, unix.ENOSYS }
	t.Cleanup(func() { sys = saved })
}

func eachProbePath(t *testing.T, f func(t *testing.T)) {
	t.Run("pidfd", f)
	t.Run("procfs", func(t *testing.T) {
		withoutPidfd(t)
		f(t)
	})
}

func wantGone(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil || !errors.Is(err, os.ErrProcessDone) || !errors.Is(err, syscall.ESRCH) {
		t.Errorf("%s = %v; want an error matching os.ErrProcessDone and syscall.ESRCH", what, err)
	}
}

func TestRunningChild(t *testing.T) {
	cmd := startSleeper(t)
	pid := cmd.Process.Pid
	eachProbePath(t, func(t *testing.T) {
		if s, err := Probe(pid); s != Running || err != nil {
			t.Errorf("Probe = %v, %v; want running", s, err)
		}
		if !Alive(pid) {
			t.Error("Alive = false")
		}
		if err := Check(pid); err != nil {
			t.Errorf("Check = %v", err)
		}
		if err := CheckProcess(cmd.Process); err != nil {
			t.Errorf("CheckProcess = %v", err)
		}
	})
	id, err := Lookup(pid)
	if err != nil || id.PID != pid || id.StartTime == 0 || id.BootID == "" {
		t.Fatalf("Lookup = %+v, %v", id, err)
	}
	if s, err := id.Probe(); s != Running || err != nil {
		t.Errorf("Identity.Probe = %v, %v; want running", s, err)
	}
}

func TestStoppedChildIsRunning(t *testing.T) {
	cmd := startSleeper(t)
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	eachProbePath(t, func(t *testing.T) {
		if s, err := Probe(cmd.Process.Pid); s != Running {
			t.Errorf("Probe(stopped) = %v, %v; want running", s, err)
		}
	})
}

func TestReapedChildIsNotFound(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	eachProbePath(t, func(t *testing.T) {
		if s, err := Probe(pid); s != NotFound || err != nil {
			t.Errorf("Probe = %v, %v; want not found", s, err)
		}
		if Alive(pid) {
			t.Error("Alive = true")
		}
		wantGone(t, "Check", Check(pid))
		wantGone(t, "CheckProcess", CheckProcess(cmd.Process))
	})
	if _, err := Lookup(pid); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Lookup = %v; want os.ErrProcessDone", err)
	}
}

func TestZombieIsNotRunning(t *testing.T) {
	cmd := startZombie(t)
	pid := cmd.Process.Pid
	// The trap safeprobe replaces: kill says a zombie is there.
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("kill(zombie, 0) = %v; the premise of this test is that it succeeds", err)
	}
	eachProbePath(t, func(t *testing.T) {
		if s, err := Probe(pid); s != Zombie || err != nil {
			t.Errorf("Probe = %v, %v; want zombie", s, err)
		}
		if Alive(pid) {
			t.Error("Alive(zombie) = true")
		}
		err := Check(pid)
		wantGone(t, "Check", err)
		if err != nil && !strings.Contains(err.Error(), "zombie") {
			t.Errorf("Check error %q does not say zombie", err)
		}
		wantGone(t, "CheckProcess", CheckProcess(cmd.Process))
	})
	// A zombie keeps its identity until reaped.
	if _, err := Lookup(pid); err != nil {
		t.Errorf("Lookup(zombie) = %v", err)
	}
}

// TestForeignProcNamesOnlySelf: in a PID namespace of its own whose
// /proc is still the parent's (unshare --pid --fork without
// --mount-proc), /proc/<pid> is another process than the PID names, so
// Lookup must refuse rather than name it, while Self, read through
// /proc/self, which names this process there, gives its identity with its
// own PID namespace; probing still works.
func TestForeignProcNamesOnlySelf(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root for a PID namespace")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare")
	}
	cmd := childCommand(t, "identity")
	cmd.Args = append([]string{unshare, "--pid", "--fork"}, cmd.Path)
	cmd.Path = unshare
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("unshare --pid --fork: %v", err)
	}
	got := strings.TrimSpace(string(out))
	if !strings.HasPrefix(got, "pid=1 ") {
		t.Fatalf("child says %q; want it to be PID 1 of its namespace", got)
	}
	if !strings.Contains(got, "self=<nil> ownns=true lookup=") || !strings.Contains(got, "another PID namespace") || !strings.HasSuffix(got, "alive=true") {
		t.Errorf("child says %q; want Self to name it in its PID namespace, Lookup to refuse (/proc from another PID namespace), and Alive(self) true", got)
	}
}

// TestMainThreadExitedIsRunning: a process whose main thread has exited
// while others run shows the main thread's Z in /proc, and is running.
func TestMainThreadExitedIsRunning(t *testing.T) {
	child := startLockChild(t, "leader-exit")
	if line := <-child.lines; line != "ready" {
		t.Skipf("child: %q", line)
	}
	pid := child.cmd.Process.Pid
	waitLeaderExited(t, pid)
	eachProbePath(t, func(t *testing.T) {
		if s, err := Probe(pid); s != Running || err != nil {
			t.Errorf("Probe = %v, %v; want running", s, err)
		}
		id, err := Lookup(pid)
		if err != nil {
			t.Fatal(err)
		}
		if s, err := id.Probe(); s != Running || err != nil {
			t.Errorf("%v.Probe() = %v, %v; want running", id, s, err)
		}
	})
}

func TestThreadIsNotAProcess(t *testing.T) {
	tid := otherThread(t)
	if err := syscall.Kill(tid, 0); err != nil {
		t.Fatalf("kill(tid, 0) = %v; the premise of this test is that it succeeds", err)
	}
	eachProbePath(t, func(t *testing.T) {
		if s, err := Probe(tid); s != NotFound || err != nil {
			t.Errorf("Probe(tid %d) = %v, %v; want not found", tid, s, err)
		}
		if _, err := Lookup(tid); !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("Lookup(tid) = %v; want os.ErrProcessDone", err)
		}
	})
}

// TestOtherUsersProcessIsRunning probes, from an unprivileged process, a
// process it may not signal: kill says EPERM, safeprobe says running.
func TestOtherUsersProcessIsRunning(t *testing.T) {
	if os.Geteuid() != 0 {
		// PID 1 belongs to root: kill(1, 0) says EPERM to everyone else.
		if err := syscall.Kill(1, 0); err != syscall.EPERM {
			t.Skipf("kill(1, 0) = %v, not EPERM", err)
		}
		if s, err := Probe(1); s != Running || err != nil {
			t.Fatalf("Probe(1) = %v, %v; want running", s, err)
		}
		return
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv not installed")
	}
	// A root-owned sleeper, probed by the test binary run as nobody. The
	// binary is copied where nobody may execute it.
	target := startSleeper(t)
	dir, err := os.MkdirTemp("", "safeprobe-nobody")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	exe, _ := os.Executable()
	bin := dir + "/probe.test"
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin)
	cmd.Env = append(os.Environ(), childEnv+"=probe-pid", "SAFEPROBE_TEST_PID="+strconv.Itoa(target.Process.Pid))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe as nobody: %v (%s)", err, out)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "|")
	if len(got) != 3 || got[2] != syscall.EPERM.Error() {
		t.Fatalf("as nobody, kill(%d, 0) = %q; the premise is EPERM (output %q)", target.Process.Pid, got, out)
	}
	if got[0] != Running.String() || got[1] != "<nil>" {
		t.Errorf("as nobody, Probe(root's process) = %s, %s; want running", got[0], got[1])
	}
}

// TestHiddenProcessIsRunning covers /proc mounted with hidepid=2: another
// user's process exists (kill says EPERM) but has no /proc entry.
func TestHiddenProcessIsRunning(t *testing.T) {
	saved := sys
	t.Cleanup(func() { sys = saved })
	sys.pidfdOpen = func(int) (int, error) { return -1, unix.EPERM }
	sys.kill = func(int, syscall.Signal) error { return unix.EPERM }
	sys.tgkill = func(int, int, syscall.Signal) error { return unix.EPERM }
	hideProc(saved)
	if s, err := Probe(4242); s != Running || err != nil {
		t.Errorf("Probe(hidden) = %v, %v; want running", s, err)
	}
	_, err := Lookup(4242)
	if !errors.Is(err, ErrUnsupported) || errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Lookup(hidden) = %v; want ErrUnsupported, not ErrProcessDone", err)
	}
}

// hideProc makes every /proc/<pid> read fail as under hidepid=2, while
// the boot ID stays readable.
func hideProc(saved linuxOS) {
	sys.readFile = func(name string, buf []byte) (int, error) {
		if strings.HasSuffix(name, "boot_id") {
			return saved.readFile(name, buf)
		}
		return 0, &os.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
	}
}

// TestHiddenThreadIDIsNotAProcess: without pidfds and with /proc hiding
// the entry, a thread ID is still told from a process (kill(tid, 0)
// succeeds; tgkill(tid, tid, 0) does not).
func TestHiddenThreadIDIsNotAProcess(t *testing.T) {
	child := startLockChild(t, "thread-id")
	tid, err := strconv.Atoi(child.expect(t, "tid"))
	if err != nil {
		t.Fatal(err)
	}
	saved := sys
	t.Cleanup(func() { sys = saved })
	sys.pidfdOpen = func(int) (int, error) { return -1, unix.ENOSYS }
	hideProc(saved)
	if s, err := Probe(tid); s != NotFound || err != nil {
		t.Errorf("Probe(hidden tid %d) = %v, %v; want not found", tid, s, err)
	}
	if s, err := Probe(child.cmd.Process.Pid); s != Running || err != nil {
		t.Errorf("Probe(hidden process %d) = %v, %v; want running", child.cmd.Process.Pid, s, err)
	}
}

// TestProbeSignalsNothingButTheValidPID records every kill the probe makes:
// no PID outside 1..MaxPID and no signal but 0 ever reaches the kernel.
func TestProbeSignalsNothingButTheValidPID(t *testing.T) {
	saved := sys
	t.Cleanup(func() { sys = saved })
	var calls []string
	sys.pidfdOpen = func(pid int) (int, error) {
		calls = append(calls, fmt.Sprintf("pidfd_open(%d)", pid))
		return -1, unix.ENOSYS
	}
	sys.kill = func(pid int, sig syscall.Signal) error {
		calls = append(calls, fmt.Sprintf("kill(%d, %d)", pid, sig))
		if pid <= 0 || sig != 0 {
			t.Errorf("kill(%d, %d) reached the kernel", pid, sig)
		}
		return saved.kill(pid, sig)
	}
	sys.tgkill = func(tgid, tid int, sig syscall.Signal) error {
		calls = append(calls, fmt.Sprintf("tgkill(%d, %d, %d)", tgid, tid, sig))
		if tgid <= 0 || tid <= 0 || sig != 0 {
			t.Errorf("tgkill(%d, %d, %d) reached the kernel", tgid, tid, sig)
		}
		return saved.tgkill(tgid, tid, sig)
	}
	for _, pid := range invalidPIDs {
		Probe(pid)
		Check(pid)
		Alive(pid)
		Lookup(pid)
		Identity{PID: pid}.Probe()
	}
	if len(calls) != 0 {
		t.Fatalf("invalid PIDs reached the OS: %v", calls)
	}
	Probe(os.Getpid())
	Lookup(os.Getpid())
	for _, c := range calls {
		if !strings.Contains(c, "("+strconv.Itoa(os.Getpid())) {
			t.Errorf("probing %d made the call %s", os.Getpid(), c)
		}
	}
}

func TestIdentityDetectsReuse(t *testing.T) {
	self, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []Identity{
		{PID: self.PID, StartTime: self.StartTime + 1, BootID: self.BootID},
		{PID: self.PID, StartTime: self.StartTime, BootID: "00000000-0000-0000-0000-000000000000"},
	} {
		if s, err := other.Probe(); s != Reused || err != nil {
			t.Errorf("%v.Probe() = %v, %v; want reused (the PID now names %v)", other, s, err, self)
		}
	}

	// For real: a child's PID handed to a new process.
	first := exec.Command("true")
	if err := first.Run(); err != nil {
		t.Fatal(err)
	}
	pid := first.Process.Pid
	if os.Geteuid() != 0 {
		return
	}
	gone := Identity{PID: pid, StartTime: 1, BootID: self.BootID}
	if s, err := gone.Probe(); s != NotFound || err != nil {
		t.Errorf("identity of a reaped child: Probe = %v, %v; want not found", s, err)
	}
	reuser := reusePID(t, pid)
	if reuser == nil {
		t.Skip("could not get the PID handed out again (ns_last_pid not writable or raced)")
	}
	now, err := Lookup(pid)
	if err != nil {
		t.Fatal(err)
	}
	// What a process with this PID that started earlier recorded: its own
	// serial, or, where pidfds had none, only its start time.
	withSerial, noSerial := now, now
	withSerial.StartTime--
	if withSerial.Serial != 0 {
		withSerial.Serial++
	}
	noSerial.StartTime--
	noSerial.Serial = 0
	for _, old := range []Identity{withSerial, noSerial} {
		if s, err := old.Probe(); s != Reused || err != nil {
			t.Errorf("after PID %d was reused: %v.Probe() = %v, %v; want reused", pid, old, s, err)
		}
	}
	if s, err := now.Probe(); s != Running {
		t.Errorf("the new owner of PID %d: Probe = %v, %v; want running", pid, s, err)
	}
}

// reusePID starts a sleeper that gets the given PID, through
// /proc/sys/kernel/ns_last_pid (root only; other forks on the machine can
// race it, so it tries a few times).
func reusePID(t *testing.T, pid int) *exec.Cmd {
	for i := 0; i < 20; i++ {
		if err := os.WriteFile("/proc/sys/kernel/ns_last_pid", []byte(strconv.Itoa(pid-1)), 0); err != nil {
			return nil
		}
		cmd := startSleeper(t)
		if cmd.Process.Pid == pid {
			return cmd
		}
	}
	return nil
}

func TestParseStat(t *testing.T) {
	line := "4242 (a) b) (c\nd) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10\n"
	state, threads, start, err := parseStat([]byte(line))
	if err != nil || state != 'S' || threads != 1 || start != 987654 {
		t.Fatalf("parseStat = %q, %d, %d, %v; want 'S', 1, 987654", state, threads, start, err)
	}
	for _, bad := range []string{"", "4242 a S 1", "4242 (a) S 1 2 3", "4242 (a) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 x",
		"4242 (a) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 x 18 19"} {
		if _, _, _, err := parseStat([]byte(bad)); !errors.Is(err, errProcFormat) {
			t.Errorf("parseStat(%q) = %v; want errProcFormat", bad, err)
		}
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add("bash", uint64(12345), []byte("1 (init) S 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0"))
	f.Add("a) (b", uint64(1), []byte("2 (a) (b) Z"))
	f.Add("x\ny) S 1", uint64(1<<63), []byte(")"))
	f.Add("", uint64(0), []byte("((((("))
	f.Fuzz(func(t *testing.T, comm string, start uint64, raw []byte) {
		parseStat(raw) // must not panic
		line := fmt.Sprintf("77 (%s) R 1 77 77 0 -1 4194560 9 0 0 0 0 0 0 0 20 0 1 0 %d 8192 100 18446744073709551615", comm, start)
		state, threads, got, err := parseStat([]byte(line))
		if err != nil || state != 'R' || threads != 1 || got != start {
			t.Fatalf("comm %q: parseStat = %q, %d, %v; want 'R', %d", comm, state, got, err, start)
		}
	})
}

func TestParseStatus(t *testing.T) {
	status := "Name:\tsleep\nUmask:\t0022\nState:\tZ (zombie)\nTgid:\t77\nNgid:\t0\nPid:\t78\n"
	state, tgid, err := parseStatus([]byte(status))
	if err != nil || state != 'Z' || tgid != 77 {
		t.Fatalf("parseStatus = %q, %d, %v", state, tgid, err)
	}
	if _, _, err := parseStatus([]byte("Name:\tx\n")); !errors.Is(err, errProcFormat) {
		t.Errorf("parseStatus without State = %v", err)
	}
}
