package safeprobe

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// More of what another local user, or a hostile moment, can do to a root
// process holding or signalling a lock: nobody's flock, a holder that
// exec'd, a full fd table, a race with the create, long names, marker
// names and hard links made in advance.

const (
	flockSharedEnv = "SAFEPROBE_FLOCK_SHARED" // flock-read: LOCK_SH rather than LOCK_EX
	flockCountEnv  = "SAFEPROBE_FLOCK_COUNT"  // flock-read: how many open files lock it
)

func init() {
	// flock-read opens the file at lockPathEnv read-only, as anyone who
	// may read it can, flocks it (shared with flockSharedEnv), prints
	// "locked", and holds it until stdin closes. With flockCountEnv it
	// flocks that many files beside it instead.
	childModes["flock-read"] = func() {
		how := unix.LOCK_EX
		if os.Getenv(flockSharedEnv) != "" {
			how = unix.LOCK_SH
		}
		n := 1
		if c := os.Getenv(flockCountEnv); c != "" {
			n, _ = strconv.Atoi(c)
			var lim unix.Rlimit
			unix.Getrlimit(unix.RLIMIT_NOFILE, &lim)
			lim.Cur = lim.Max
			if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
				fmt.Printf("error setrlimit: %v\n", err)
				os.Exit(1)
			}
		}
		for i := 0; i < n; i++ {
			path := os.Getenv(lockPathEnv)
			if n > 1 { // a file each: the kernel checks a new flock against all of its file's
				path = fmt.Sprintf("%s.%d.%d", path, os.Getpid(), i)
			}
			fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CREAT|unix.O_CLOEXEC, 0o600)
			if err == nil {
				err = unix.Flock(fd, how|unix.LOCK_NB)
			}
			if err != nil {
				fmt.Printf("error %v\n", err)
				os.Exit(1)
			}
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
	}
	// flock-spin opens the file at lockPathEnv read-only and tries to
	// flock it, over and over, as fast as it can, holding what it gets
	// for a moment, until stdin closes; then it prints "wins N".
	childModes["flock-spin"] = func() {
		var done atomic.Bool
		go func() {
			io.Copy(io.Discard, os.Stdin)
			done.Store(true)
		}()
		wins := 0
		for !done.Load() {
			fd, err := unix.Open(os.Getenv(lockPathEnv), unix.O_RDONLY|unix.O_CLOEXEC, 0)
			if err != nil {
				continue
			}
			if unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) == nil {
				wins++
				time.Sleep(time.Millisecond)
			}
			unix.Close(fd)
		}
		fmt.Printf("wins %d\n", wins)
	}
	// lock-exec-handoff takes the lock at lockPathEnv and writes its own
	// record, starts `sleep 600` with the lock file as its fd 3, prints
	// "spawned <pid>", and exec's sleep itself: exec closes its own
	// descriptor, and the lock stays with the child.
	childModes["lock-exec-handoff"] = func() {
		f, err := openLockFile(os.Getenv(lockPathEnv), true, 0o600)
		if err == nil {
			err = f.tryLock()
		}
		if err == nil {
			var rec Record
			if rec, err = newRecord("handoff"); err == nil {
				err = writeRecord(f, formatRecord(rec), false)
			}
		}
		child := exec.Command("sleep", "600")
		if err == nil {
			child.ExtraFiles = []*os.File{os.NewFile(uintptr(f.(*unixLockFile).fd), "lock")}
			err = child.Start()
		}
		if err != nil {
			fmt.Printf("error %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("spawned %d\n", child.Process.Pid)
		err = syscall.Exec("/bin/sleep", []string{"sleep", "600"}, os.Environ())
		fmt.Printf("error exec: %v\n", err)
		os.Exit(1)
	}
	// signal-owner-kill-denied makes Go's os package give up pidfds for
	// good (its first pidfd_open fails for a full fd table), makes kill(2)
	// fail with EDOM in every thread (seccomp), then prints "result
	// <SignalOwner(lockPathEnv, SIGUSR1)>": a signal sent by PID shows as
	// EDOM.
	childModes["signal-owner-kill-denied"] = func() {
		if err := poisonGoPidfds(); err != nil {
			fmt.Printf("error %v\n", err)
			os.Exit(1)
		}
		if err := denyKill(unix.EDOM); err != nil {
			fmt.Printf("error seccomp: %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("result %v\n", SignalOwner(os.Getenv(lockPathEnv), syscall.SIGUSR1))
	}
}

// poisonGoPidfds fills the fd table and asks os.FindProcess once: the os
// package checks once whether pidfds work, and keeps the answer "no" for
// the rest of the process. Then it frees the table.
func poisonGoPidfds() error {
	var saved unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &saved); err != nil {
		return err
	}
	lim := saved
	lim.Cur = 64
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	fds := fillFDs()
	p, _ := os.FindProcess(os.Getpid())
	p.Release()
	for _, fd := range fds {
		unix.Close(fd)
	}
	return unix.Setrlimit(unix.RLIMIT_NOFILE, &saved)
}

// fillFDs opens /dev/null until the descriptor table is full, and returns
// the descriptors.
func fillFDs() []int {
	var fds []int
	for {
		fd, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return fds
		}
		fds = append(fds, fd)
	}
}

// denyKill installs a seccomp filter on every thread that fails kill(2)
// with errno, and lets every other system call through.
func denyKill(errno syscall.Errno) error {
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: uint32(unix.SYS_KILL)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(errno)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&prog))); e != 0 {
		return e
	}
	return nil
}

// TestSignalOwnerNeverSignalsByPID: a process whose first pidfd_open
// failed for a full fd table gets no pidfd from os.FindProcess again, so
// a signal through its Process goes by PID, to whatever has the PID by
// then. SignalOwner must signal through a pidfd it opened before checking
// the holder (kill(2) fails with EDOM here, to show it was not used).
func TestSignalOwnerNeverSignalsByPID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path, lockSignalEnv+"=1")
	holder.expect(t, "locked")
	holder.expect(t, "signals ready")
	out := startLockChild(t, "signal-owner-kill-denied", lockPathEnv+"="+path).expect(t, "result")
	if out != "<nil>" {
		t.Fatalf("SignalOwner with no pidfd from os.FindProcess = %s; want the signal sent through a pidfd", out)
	}
	holder.expect(t, "got user defined signal 1")
}

// TestSignalOwnerWithoutPidfdSignalsNothing: when no pidfd can be had
// (EMFILE), nothing is signalled, by pidfd or by PID, and the error says
// why.
func TestSignalOwnerWithoutPidfdSignalsNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path)
	holder.expect(t, "locked")
	saved := sys
	t.Cleanup(func() { sys = saved })
	sys.pidfdOpen = func(int) (int, error) { return -1, unix.EMFILE }
	var signalled []string
	sys.pidfdSendSignal = func(fd int, sig syscall.Signal) error {
		signalled = append(signalled, fmt.Sprintf("pidfd %d", fd))
		return nil
	}
	sys.kill = func(pid int, sig syscall.Signal) error {
		if sig != 0 {
			signalled = append(signalled, fmt.Sprintf("kill %d", pid))
			return nil
		}
		return saved.kill(pid, sig)
	}
	err := SignalOwner(path, syscall.SIGTERM)
	if err == nil || !errors.Is(err, unix.EMFILE) || len(signalled) > 0 {
		t.Errorf("SignalOwner with a full fd table = %v, signalled %v; want EMFILE and no signal", err, signalled)
	}
}

// TestSignalOwnerRefusesAnotherUsersFlock: root's lock file, readable by
// others (Mode 0644), names a process of root's that is running but does
// not hold it (it released, and the file stayed). Nobody opens the file
// read-only and flocks it: the lock is held, and its record names a live
// process of the file's owner. SignalOwner must not signal that process.
func TestSignalOwnerRefusesAnotherUsersFlock(t *testing.T) {
	requireRoot(t)
	victim, vid := signalWatcher(t, filepath.Join(t.TempDir(), "v.lock"), false)
	path := filepath.Join(publicDir(t), "x.lock")
	if err := os.WriteFile(path, []byte(recordOf(vid)), 0o644); err != nil {
		t.Fatal(err)
	}
	attacker := startNobody(t, "flock-read", lockPathEnv+"="+path)
	attacker.expect(t, "locked")
	if st, err := Inspect(path); err != nil || !st.Held {
		t.Fatalf("Inspect = %+v, %v; want held (by nobody)", st, err)
	}
	if err := SignalOwner(path, syscall.SIGUSR1); !errors.Is(err, ErrNotHeld) || !strings.Contains(err.Error(), "does not hold it") {
		t.Errorf("SignalOwner = %v; want ErrNotHeld: the record's process does not hold the lock", err)
	}
	select {
	case line := <-victim.lines:
		t.Fatalf("pid %d was signalled: %q", vid.PID, line)
	case <-time.After(200 * time.Millisecond):
	}
}

// TestSignalOwnerRefusesExecdHolder: a holder hands its lock file to a
// child (which keeps the lock) and exec's another program. Its PID, start
// time and boot, and so its record, still match, and /proc/locks still
// names its PID as the lock's taker, but it holds nothing: SignalOwner
// must not signal it.
func TestSignalOwnerRefusesExecdHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	holder := startLockChild(t, "lock-exec-handoff", lockPathEnv+"="+path)
	child, err := strconv.Atoi(holder.expect(t, "spawned"))
	if err != nil {
		t.Fatal(err)
	}
	pid := holder.cmd.Process.Pid
	t.Cleanup(func() {
		syscall.Kill(child, syscall.SIGKILL)
		holder.cmd.Process.Kill() // sleep 600 now: it would not end with its stdin
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(procPath(pid, "comm")); string(b) == "sleep\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the holder %d did not exec", pid)
		}
	}
	st, err := Inspect(path)
	if err != nil || !st.Held || st.Record.PID != pid || st.State != Running {
		t.Fatalf("Inspect = %+v, %v; want held, the record naming the running pid %d", st, err, pid)
	}
	if err := SignalOwner(path, syscall.SIGTERM); !errors.Is(err, ErrNotHeld) {
		t.Errorf("SignalOwner = %v; want ErrNotHeld: pid %d holds nothing since its exec", err, pid)
	}
	if s, _ := Probe(pid); s != Running {
		t.Errorf("pid %d, which holds nothing, was signalled: %v", pid, s)
	}
}

// TestInspectCountsSharedLock: a shared flock (LOCK_SH, taken outside this
// package) stops TryAcquire, so Inspect must say the lock is held, from
// /proc/locks here and from its probe in a PID namespace of its own (where
// /proc/locks may omit holders).
func TestInspectCountsSharedLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	if err := os.WriteFile(path, []byte("1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sharer := startLockChild(t, "flock-read", lockPathEnv+"="+path, flockSharedEnv+"=1")
	sharer.expect(t, "locked")
	if _, err := TryAcquire(path, nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryAcquire while a shared flock is held = %v; want ErrLocked", err)
	}
	if st, err := Inspect(path); err != nil || !st.Held || st.Stale {
		t.Errorf("Inspect while a shared flock is held = %+v, %v; want held, as TryAcquire finds it", st, err)
	}
	cmd := childCommand(t, "inspect-print", lockPathEnv+"="+path)
	inPIDNamespace(t, cmd, true)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspect-print in a PID namespace: %v (%s)", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "held=true err=<nil>" {
		t.Errorf("Inspect in a PID namespace (the probe) while a shared flock is held: %s; want held", got)
	}
}

func init() {
	// inspect-print prints "held=<Status.Held> err=<error>" of Inspect of
	// lockPathEnv.
	childModes["inspect-print"] = func() {
		st, err := Inspect(os.Getenv(lockPathEnv))
		fmt.Printf("held=%v err=%v\n", st.Held, err)
	}
}

// TestInspectReadsTheLockTableOnce: while a held lock's record is being
// written, Inspect reads the record again and again (half a second), but
// /proc/locks once: counted in the bytes this process reads (rchar).
func TestInspectReadsTheLockTableOnce(t *testing.T) {
	size := floodLocks(t, 2000, false)
	path := filepath.Join(t.TempDir(), "d.lock")
	holdRaw(t, path, "") // held, with the record not yet written
	before := readChars(t)
	st, err := Inspect(path)
	read := readChars(t) - before
	if err != nil || !st.Held || !st.Corrupt {
		t.Fatalf("Inspect = %+v, %v; want held, record unfinished", st, err)
	}
	t.Logf("/proc/locks %d bytes; Inspect read %d bytes in all", size, read)
	if read > size+size/2 {
		t.Errorf("Inspect read %d bytes, the %d-byte /proc/locks %.1f times; want once", read, size, float64(read)/float64(size))
	}
}

// readChars is rchar of /proc/self/io: the bytes this process has read.
func readChars(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	t.Skip("no rchar in /proc/self/io")
	return 0
}

// TestLockCreateRaceWithAnotherUser: a holder's lock file is readable by
// others (Mode 0644), and nobody tries to open and flock it as fast as it
// can. Between the holder creating the file and locking it, nobody could
// lock it first, and the holder then fails (or, had it not checked, two
// would hold it). A file created locked leaves no such moment.
func TestLockCreateRaceWithAnotherUser(t *testing.T) {
	requireRoot(t)
	path := filepath.Join(publicDir(t), "race.lock")
	attacker := startNobody(t, "flock-spin", lockPathEnv+"="+path)
	rounds := envInt("SAFEPROBE_CREATE_RACE_ROUNDS", 2000)
	lost := 0
	for i := 0; i < rounds; i++ {
		l, err := TryAcquire(path, &LockOptions{Mode: 0o644, NoSync: true})
		switch {
		case err == nil:
			l.Release()
		case errors.Is(err, ErrLocked):
			lost++
			os.Remove(path) // the next round creates the file again
			time.Sleep(2 * time.Millisecond)
		default:
			t.Fatalf("round %d: %v", i, err)
		}
	}
	attacker.stdin.Close()
	wins := attacker.expect(t, "wins")
	t.Logf("%d rounds: nobody locked the new file first %d times (its own count: %s)", rounds, lost, wins)
	if lost > 0 {
		t.Errorf("nobody locked the holder's new lock file before it did in %d of %d rounds", lost, rounds)
	}
}

// TestLockLongProgramName: a holder whose argv[0] is thousands of bytes
// long writes a record that still fits what readers read (4096 bytes), its
// program name cut; Inspect reads it, and SignalOwner finds its holder.
func TestLockLongProgramName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	cmd := childCommand(t, "lock-hold", lockPathEnv+"="+path, lockSignalEnv+"=1")
	cmd.Args[0] = strings.Repeat("p", 5000)
	holder := startChildCommand(t, cmd)
	holder.expect(t, "locked")
	holder.expect(t, "signals ready")
	st, err := Inspect(path)
	if err != nil || st.Corrupt || st.Record.PID != cmd.Process.Pid || st.Record.Program != strings.Repeat("p", maxRecordedName) {
		t.Fatalf("Inspect of a record by a program with a 5000-byte name = %+v, %v; want it read, the name cut to %d bytes", st, err, maxRecordedName)
	}
	if err := SignalOwner(path, syscall.SIGUSR1); err != nil {
		t.Fatalf("SignalOwner = %v", err)
	}
	holder.expect(t, "got user defined signal 1")
}

// TestTakeoverDespiteSquattedMarkerNames: nobody makes directories, with
// something in them, at the names a takeover uses beside root's lock in a
// sticky directory: the marker's, and the one its remover used to move it
// to. A request must still reach the holder, and the marker still go once
// the requester holds the lock.
func TestTakeoverDespiteSquattedMarkerNames(t *testing.T) {
	requireRoot(t)
	path := filepath.Join(stickyDir(t), "t.lock")
	marker := path + takeoverSuffix
	attack(t, `for d in "$1" "$1.done"; do mkdir -m 0755 "$d" && echo squat > "$d/f"; done`, marker)
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	requester := startLockChild(t, "lock-takeover", lockPathEnv+"="+path, lockTTLEnv+"=1h", lockWaitEnv+"=1")
	requester.expect(t, "requested")
	deadline := time.Now().Add(10 * time.Second)
	for ok, _ := l.TakeoverRequested(); !ok; ok, _ = l.TakeoverRequested() {
		if time.Now().After(deadline) {
			t.Fatal("the holder never saw the request")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	requester.expect(t, "acquired")
	if fi, err := os.Lstat(marker); err == nil {
		t.Errorf("the requester holds the lock, and its marker is still there (%v)", fi.Mode())
	}
	requester.finish(t)
}

// TestLockPlantedHardlinkRefused: where fs.protected_hardlinks is 0, any
// user may link any file they can reach, root's too, at the lock path in a
// sticky directory; elsewhere they may link their own files. The lock file
// then has two links, and TryAcquire refuses it, saying why and what to
// do, and leaves the other file as it was.
func TestLockPlantedHardlinkRefused(t *testing.T) {
	requireRoot(t)
	precious := filepath.Join(publicDir(t), "precious")
	if err := os.WriteFile(precious, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(stickyDir(t), "h.lock")
	if b, _ := os.ReadFile("/proc/sys/fs/protected_hardlinks"); strings.TrimSpace(string(b)) == "0" {
		attack(t, `ln "$1" "$2"`, precious, path)
	} else {
		// The guard is on: nobody cannot, root stands in.
		cmd := exec.Command("ln", precious, path)
		asNobody(t, cmd)
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Fatalf("nobody linked root's file with fs.protected_hardlinks on (%s)", out)
		}
		if err := os.Link(precious, path); err != nil {
			t.Fatal(err)
		}
	}
	_, err := TryAcquire(path, nil)
	for _, want := range []string{"has 2 hard links", "fs.protected_hardlinks", "remove"} {
		if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), want) {
			t.Errorf("TryAcquire of a planted hard link = %v; want ErrUnsafePath saying %q", err, want)
		}
	}
	if got := readFile(t, precious); got != "precious\n" {
		t.Errorf("the linked file changed: %q", got)
	}
}

func init() {
	// signal-owner-few-fds makes kill(2) fail with EDOM (seccomp), then,
	// for 0 to 8 free descriptors in a full table, prints "free=N result
	// <SignalOwner(lockPathEnv, SIGUSR1)>".
	childModes["signal-owner-few-fds"] = func() {
		if err := denyKill(unix.EDOM); err != nil {
			fmt.Printf("error seccomp: %v\n", err)
			os.Exit(1)
		}
		withFreeFDs(8, func(free int) {
			err := SignalOwner(os.Getenv(lockPathEnv), syscall.SIGUSR1)
			fmt.Printf("free=%d result %v\n", free, err)
		})
	}
}

// withFreeFDs runs fn(free) with free descriptors left in a full table of
// 64, for free from 0 to most, in a child: it exits if it cannot limit the
// table.
func withFreeFDs(most int, fn func(free int)) {
	time.Sleep(time.Millisecond) // the runtime's poller takes its descriptor at the first sleep
	lim := unix.Rlimit{Cur: 64, Max: 64}
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	for free := 0; free <= most; free++ {
		fds := fillFDs()
		for _, fd := range fds[len(fds)-free:] {
			unix.Close(fd)
		}
		fn(free)
		for _, fd := range fds[:len(fds)-free] {
			unix.Close(fd)
		}
	}
}

// TestSignalOwnerWithFewFreeFDs: SignalOwner in a process with 0 to 8
// descriptors free (the lock file, /proc files, pidfds each need one)
// either signals the holder through a pidfd or fails saying why; it never
// falls back to kill(2) by PID (which fails with EDOM here, to show it).
func TestSignalOwnerWithFewFreeFDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.lock")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path, lockSignalEnv+"=1")
	holder.expect(t, "locked")
	holder.expect(t, "signals ready")
	out, err := childCommand(t, "signal-owner-few-fds", lockPathEnv+"="+path).Output()
	if err != nil {
		t.Fatalf("signal-owner-few-fds: %v (%s)", err, out)
	}
	sent := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		t.Log(line)
		switch {
		case strings.HasSuffix(line, "result <nil>"):
			sent++
		case strings.Contains(line, unix.EDOM.Error()):
			t.Errorf("%s: kill(2) by PID was tried", line)
		case !strings.Contains(line, "too many open files"):
			t.Errorf("%s: an error that does not say the table is full", line)
		}
	}
	if sent == 0 {
		t.Errorf("no SignalOwner succeeded even with 8 descriptors free")
	}
	// Signals of one kind sent while one is pending merge into one: the
	// holder gets at least one, not one per success.
	if sent > 0 {
		holder.expect(t, "got user defined signal 1")
	}
}
