package main

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pidlint/pidlint/safeprobe"
)

// TestAliveZombie checks that a zombie (exited, not reaped) is not
// running, where kill -0 says it is.
func TestAliveZombie(t *testing.T) {
	child := exec.Command(testExe(t), helperRole, "exit", "0")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait()
	pid := child.Process.Pid
	waitFor(t, "the child to become a zombie", func() bool {
		s, _ := safeprobe.Probe(pid)
		return s == safeprobe.Zombie
	})
	wantExit(t, sp(t, "alive", strconv.Itoa(pid)), aliveGone, "(a zombie)")
	wantExit(t, sp(t, "alive", "-json", strconv.Itoa(pid)), aliveGone, `"state":"zombie","running":false`)
}

// TestAliveAnotherUsersProcess checks, as root, that alive run as nobody
// reads root's process (kill -0: EPERM) as running.
func TestAliveAnotherUsersProcess(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run safeprobe as nobody")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip(err)
	}
	// A copy nobody may execute: the test binary's directory may be
	// root's alone.
	dir, err := os.MkdirTemp("", "safeprobe-cli")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	data, err := os.ReadFile(testExe(t))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "safeprobe")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid="+nobody.Uid, "--regid="+nobody.Gid, "--clear-groups",
		bin, mainRole, "alive", strconv.Itoa(os.Getpid()))
	wantExit(t, finish(t, cmd), aliveRunning, "is running")
}

// TestStatusAnotherUsersFile checks, as root, that a lock file another
// user owns is refused: its record is that user's claim.
func TestStatusAnotherUsersFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give the file to nobody")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip(err)
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	lock := filepath.Join(lockDir(t), "app.pid")
	if err := os.WriteFile(lock, []byte("1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(lock, uid, -1); err != nil {
		t.Fatal(err)
	}
	wantExit(t, sp(t, "status", lock), statusUnknown, "owned by uid "+nobody.Uid)
	wantExit(t, sp(t, "stop", lock), stopRefused, "owned by uid "+nobody.Uid, "nothing signalled")
}
