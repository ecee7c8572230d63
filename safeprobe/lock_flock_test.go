//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

const (
	lockSpawnEnv  = "SAFEPROBE_LOCK_SPAWN"  // lock-hold: start `sleep 600`, print "spawned <pid>"
	lockSignalEnv = "SAFEPROBE_LOCK_SIGNAL" // lock-hold: print "signals ready", then "got <signal>" for each SIGUSR1
	lockChdirEnv  = "SAFEPROBE_LOCK_CHDIR"  // lock-try: the working directory, for a relative lock path
)

func init() {
	// lock-try: TryAcquire once (in lockChdirEnv, if set), print "ok" or
	// the error's kinds. Run as another user, too.
	childModes["lock-try"] = func() {
		if dir := os.Getenv(lockChdirEnv); dir != "" {
			if err := os.Chdir(dir); err != nil {
				fmt.Printf("error %v\n", err)
				return
			}
		}
		l, err := TryAcquire(os.Getenv(lockPathEnv), nil)
		if err == nil {
			l.Release()
			fmt.Println("result ok")
			return
		}
		var le *LockError
		fmt.Printf("result permission=%v lockerror=%v unsafe=%v msg=%v\n",
			errors.Is(err, fs.ErrPermission), errors.As(err, &le), errors.Is(err, ErrUnsafePath), err)
	}
}

// lockChildHooks runs in a lock-hold child once it holds the lock.
func lockChildHooks(l *Lock) {
	if os.Getenv(lockSpawnEnv) != "" {
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			fmt.Printf("error %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("spawned %d\n", cmd.Process.Pid)
	}
	if os.Getenv(lockSignalEnv) != "" {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGUSR1)
		go func() {
			for s := range ch {
				fmt.Printf("got %v\n", s)
			}
		}()
		fmt.Println("signals ready")
	}
}

func TestLockFileMode(t *testing.T) {
	dir := lockTestDir(t) // before the umask: a directory anyone may write is refused
	defer syscall.Umask(syscall.Umask(0))
	for _, c := range []struct {
		mode os.FileMode
		want os.FileMode
	}{{0, 0o600}, {0o644, 0o644}} {
		path := filepath.Join(dir, fmt.Sprintf("m%o.pid", c.mode))
		l, err := TryAcquire(path, &LockOptions{Mode: c.mode})
		if err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != c.want {
			t.Errorf("Mode %#o: file mode %v, %v; want %#o", c.mode, fi.Mode(), err, c.want)
		}
		l.Release()
	}
	// Whoever may write the record may name any process in it: a Mode or
	// an existing file that lets group or others write is refused.
	for _, mode := range []os.FileMode{0o664, 0o666, 0o622} {
		path := filepath.Join(dir, fmt.Sprintf("w%o.pid", mode))
		if _, err := TryAcquire(path, &LockOptions{Mode: mode}); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("TryAcquire(Mode %#o) = %v, want ErrUnsafePath", mode, err)
		}
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, mode)
		if _, err := TryAcquire(path, nil); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "writable by group or others") {
			t.Errorf("TryAcquire(existing file, mode %#o) = %v, want ErrUnsafePath", mode, err)
		}
	}
}

func TestLockUnsafePathsUnix(t *testing.T) {
	dir := lockTestDir(t)
	t.Run("symlink", func(t *testing.T) {
		target := filepath.Join(dir, "target")
		os.WriteFile(target, []byte("precious\n"), 0o600)
		path := filepath.Join(dir, "link.pid")
		os.Symlink(target, path)
		wantUnsafe(t, path, "symbolic link")
		if got := readFile(t, target); got != "precious\n" {
			t.Errorf("symlink target changed: %q", got)
		}
	})
	t.Run("dangling symlink", func(t *testing.T) {
		target := filepath.Join(dir, "not-created")
		path := filepath.Join(dir, "dangling.pid")
		os.Symlink(target, path)
		wantUnsafe(t, path, "symbolic link")
		if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("TryAcquire created the symlink's target: %v", err)
		}
	})
	t.Run("FIFO", func(t *testing.T) {
		path := filepath.Join(dir, "fifo.pid")
		if err := unix.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			wantUnsafe(t, path, "FIFO")
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("TryAcquire blocked on a FIFO")
		}
		if _, err := Inspect(path); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("Inspect(FIFO) = %v, want ErrUnsafePath", err)
		}
	})
	t.Run("other owner", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to chown")
		}
		nobody := nobodyIDs(t)
		path := filepath.Join(dir, "others.pid")
		os.WriteFile(path, []byte("1234\n"), 0o644)
		if err := os.Chown(path, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		wantUnsafe(t, path, "owned by uid")
	})
	t.Run("unreadable", func(t *testing.T) {
		path := filepath.Join(dir, "unreadable.pid")
		os.WriteFile(path, []byte("1234\n"), 0o600)
		if err := os.Chmod(path, 0); err != nil {
			t.Fatal(err)
		}
		if os.Geteuid() != 0 {
			wantUnsafe(t, path, "permission denied")
			return
		}
		// Root reads anything: try as nobody, on a file nobody owns but
		// may not read.
		nobody := nobodyIDs(t)
		if err := os.Chown(path, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		before := readFile(t, path)
		out := runAsNobody(t, "lock-try", lockPathEnv+"="+path)
		if !strings.Contains(out, "result permission=true lockerror=true") || !strings.Contains(out, path) {
			t.Errorf("TryAcquire of an unreadable file as nobody: %q; want a *LockError wrapping fs.ErrPermission naming the path", out)
		}
		if got := readFile(t, path); got != before {
			t.Errorf("content changed: %q -> %q", before, got)
		}
	})
}

// TestLockSymlinkRace: a symlink and a regular file take turns at the path
// as fast as renames go while TryAcquire runs. It must lock a regular file
// or refuse, whether the symlink was there at its check before opening
// (the Lstat) or only at the open (O_NOFOLLOW); the symlink's target is
// never written.
func TestLockSymlinkRace(t *testing.T) {
	dir := lockTestDir(t)
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("precious\n"), 0o600)
	path := filepath.Join(dir, "race.pid")
	stop := make(chan struct{})
	swapped := make(chan int)
	go func() {
		i := 0
		defer func() { swapped <- i }()
		for ; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			tmp := filepath.Join(dir, "tmp"+strconv.Itoa(i))
			if i%2 == 0 {
				os.Symlink(target, tmp)
			} else {
				os.WriteFile(tmp, nil, 0o600)
			}
			os.Rename(tmp, path)
		}
	}()
	var locked, refusedBefore, refusedAtOpen, refusedAfter, other int
	for i := 0; i < 2000; i++ {
		l, err := TryAcquire(path, &LockOptions{NoSync: true})
		switch {
		case err == nil:
			locked++
			l.Release()
		case errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK):
			refusedAtOpen++
		case errors.Is(err, ErrUnsafePath) && strings.Contains(err.Error(), "symbolic link"):
			refusedBefore++
		case errors.Is(err, ErrUnsafePath):
			refusedAfter++ // e.g. the open file's hard-link count, mid-rename
		default:
			other++
			t.Logf("other outcome: %v", err)
		}
	}
	close(stop)
	t.Logf("%d swaps: %d locked, refused: %d by the check before opening, %d by O_NOFOLLOW, %d on the open file; %d other",
		<-swapped, locked, refusedBefore, refusedAtOpen, refusedAfter, other)
	if got := readFile(t, target); got != "precious\n" {
		t.Errorf("symlink target written: %q", got)
	}
	if locked == 0 || refusedBefore+refusedAtOpen == 0 {
		t.Errorf("the race did not exercise both outcomes")
	}
}

// requireRoot skips a test that needs to make files and processes of
// another user.
func requireRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to act as another user")
	}
}

// publicDir is a new directory of this user's that others may enter and
// list (mode 0755), but not write.
func publicDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// stickyDir is a directory like /tmp: world-writable and sticky, where
// nobody may create files.
func stickyDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	return dir
}

func nobodyIDs(t *testing.T) int {
	t.Helper()
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no user nobody")
	}
	uid, _ := strconv.Atoi(u.Uid)
	return uid
}

// runAsNobody runs the test binary as nobody in a child mode and returns
// its output. The binary is copied where nobody may execute it, and the
// test's temporary directories are opened to others.
func runAsNobody(t *testing.T, mode string, env ...string) string {
	t.Helper()
	cmd := nobodyCommand(t, mode, env...)
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, lockPathEnv+"="); ok {
			for d := filepath.Dir(p); d != os.TempDir() && d != "/" && d != "."; d = filepath.Dir(d) {
				os.Chmod(d, 0o755)
			}
		}
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child as nobody: %v (%s)", err, out)
	}
	return string(out)
}

// nobodyCommand returns a command running the test binary as nobody in a
// child mode, through setpriv (as an administrator would drop privileges)
// where it is installed. The binary is copied where nobody may execute it.
func nobodyCommand(t *testing.T, mode string, env ...string) *exec.Cmd {
	t.Helper()
	bin := nobodyBinary(t)
	cmd := childCommand(t, mode, env...)
	cmd.Path, cmd.Args[0] = bin, bin
	asNobody(t, cmd)
	return cmd
}

// asNobody makes cmd run as nobody with no supplementary groups:
// setpriv --reuid=nobody --regid=<nobody's group> --clear-groups cmd, or
// the same credentials set by the Go runtime where setpriv is missing.
func asNobody(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	uid := nobodyIDs(t)
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
		return
	}
	id := strconv.Itoa(uid)
	cmd.Args = append([]string{setpriv, "--reuid=" + id, "--regid=" + id, "--clear-groups", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = setpriv
}

// attack runs a shell script as nobody, the attacker, with args as $1,
// $2, ..., and fails the test if it fails.
func attack(t *testing.T, script string, args ...string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{"-c", script, "attacker"}, args...)...)
	asNobody(t, cmd)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("as nobody: %s %q: %v (%s)", script, args, err, out)
	}
}

// nobodyBinary copies the test binary where nobody may execute it.
func nobodyBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bindir, err := os.MkdirTemp("", "safeprobe-lock-nobody")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(bindir) })
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(bindir, "safeprobe.test")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(bindir, 0o755)
	return bin
}

func TestLockDirUnix(t *testing.T) {
	root := lockTestDir(t)
	defer syscall.Umask(syscall.Umask(0o022))
	created := filepath.Join(root, "new")
	if _, err := NewLockDir(created); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(created); fi.Mode().Perm() != 0o700 {
		t.Errorf("created lock dir mode %v, want 0700", fi.Mode())
	}
	open := filepath.Join(root, "open")
	os.Mkdir(open, 0o700)
	os.Chmod(open, 0o777)
	if _, err := NewLockDir(open); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "sticky") {
		t.Errorf("NewLockDir(world-writable) = %v, want ErrUnsafePath", err)
	}
	os.Chmod(open, 0o775)
	if _, err := NewLockDir(open); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "group-writable") {
		t.Errorf("NewLockDir(group-writable) = %v, want ErrUnsafePath", err)
	}
	os.Chmod(open, 0o777|os.ModeSticky)
	if _, err := NewLockDir(open); err != nil {
		t.Errorf("NewLockDir(world-writable, sticky) = %v", err)
	}
	link := filepath.Join(root, "link")
	os.Symlink(created, link)
	for _, p := range []string{link, link + "/"} {
		if _, err := NewLockDir(p); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("NewLockDir(%q, a symlink) = %v, want ErrUnsafePath", p, err)
		}
	}
}

// holdRecord holds the lock at path in this process with a record naming
// rec, as a holder that wrote it would.
func holdRecord(t *testing.T, rec Record) string {
	t.Helper()
	path := filepath.Join(lockTestDir(t), "d.pid")
	holdRaw(t, path, string(formatRecord(rec)))
	return path
}

func TestSignalOwner(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "d.pid")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path, lockSignalEnv+"=1")
	holder.expect(t, "locked")
	holder.expect(t, "signals ready")
	if err := SignalOwner(path, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	holder.expect(t, "got user defined signal 1")
	holder.finish(t)
	if err := SignalOwner(path, syscall.SIGUSR1); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("SignalOwner without a lock file = %v", err)
	}
}

// TestSignalOwnerRefuses: SignalOwner signals nothing it cannot prove is
// the holder.
func TestSignalOwnerRefuses(t *testing.T) {
	self, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	// A live process, watched for signals it must not get.
	victimPath := filepath.Join(lockTestDir(t), "v.pid")
	victim := startLockChild(t, "lock-hold", lockPathEnv+"="+victimPath, lockSignalEnv+"=1")
	victim.expect(t, "locked")
	victim.expect(t, "signals ready")
	vpid := victim.cmd.Process.Pid
	vid, err := Lookup(vpid)
	if err != nil {
		t.Fatal(err)
	}
	dead := exitedIdentity(t)

	refuse := func(name string, path string, opts *SignalOptions, check func(error) bool) {
		t.Helper()
		err := SignalOwnerWith(path, syscall.SIGUSR1, opts)
		var le *LockError
		if err == nil || !errors.As(err, &le) || le.Path != path || !check(err) {
			t.Errorf("%s: SignalOwner = %v", name, err)
		}
	}
	isReused := func(err error) bool {
		var pe *ProcessError
		return errors.As(err, &pe) && pe.State == Reused && errors.Is(err, os.ErrProcessDone)
	}
	isNotFound := func(err error) bool {
		var pe *ProcessError
		return errors.As(err, &pe) && pe.State == NotFound && errors.Is(err, os.ErrProcessDone)
	}
	is := func(target error) func(error) bool { return func(err error) bool { return errors.Is(err, target) } }

	refuse("exited holder", holdRecord(t, Record{PID: dead.PID, Version: 1, HasIdentity: true, Identity: dead}), nil, isNotFound)
	wrongStart, wrongSerial := vid, vid
	wrongStart.StartTime++
	wrongStart.Serial = 0 // recorded where pidfds have no serial
	refuse("live PID, wrong start time", holdRecord(t, Record{PID: vpid, Version: 1, HasIdentity: true, Identity: wrongStart}), nil, isReused)
	wrongSerial.Serial++
	refuse("live PID, another serial", holdRecord(t, Record{PID: vpid, Version: 1, HasIdentity: true, Identity: wrongSerial}), nil, isReused)
	otherBoot := vid
	otherBoot.BootID = "an-earlier-boot"
	refuse("live PID, earlier boot", holdRecord(t, Record{PID: vpid, Version: 1, HasIdentity: true, Identity: otherBoot}), nil, isReused)
	for _, bad := range []string{"0\n", "-1\n", "-" + strconv.Itoa(os.Getpid()) + "\n", "4294967295\n", "", "garbage"} {
		refuse(fmt.Sprintf("record %q", bad), func() string {
			p := filepath.Join(lockTestDir(t), "d.pid")
			holdRaw(t, p, bad)
			return p
		}(), &SignalOptions{AllowUnverified: true, AllowSelf: true}, is(ErrCorruptRecord))
	}
	bare := holdRecord(t, Record{PID: vpid})
	refuse("record without identity", bare, nil, is(ErrUnverified))
	selfPath := holdRecord(t, Record{PID: self.PID, Version: 1, HasIdentity: true, Identity: self})
	refuse("self", selfPath, nil, is(ErrSelf))
	notHeld := filepath.Join(lockTestDir(t), "d.pid")
	os.WriteFile(notHeld, formatRecord(Record{PID: vpid, Version: 1, HasIdentity: true, Identity: vid}), 0o600)
	refuse("lock not held", notHeld, nil, is(ErrNotHeld))

	select {
	case line := <-victim.lines:
		t.Fatalf("a refused SignalOwner reached the live process: %q", line)
	case <-time.After(100 * time.Millisecond):
	}

	// What the options allow. Only the holder is signalled: the victim's
	// own lock file gets the bare record.
	if err := os.WriteFile(victimPath, formatRecord(Record{PID: vpid}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SignalOwnerWith(victimPath, syscall.SIGUSR1, &SignalOptions{AllowUnverified: true}); err != nil {
		t.Errorf("SignalOwner(bare record, AllowUnverified) = %v", err)
	}
	victim.expect(t, "got user defined signal 1")
	if err := SignalOwnerWith(selfPath, syscall.Signal(0), &SignalOptions{AllowSelf: true}); err != nil {
		t.Errorf("SignalOwner(self, AllowSelf) = %v", err)
	}
	victim.finish(t)
}
