package safeprobe

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLockOnFullDisk fills a real 16 KiB tmpfs (root only) so the record's
// write fails with ENOSPC, for a lock file that is there already and for
// one TryAcquire creates, in a LockDir and by path: TryAcquire fails naming
// the path, the lock is not kept and no lock file is left (nothing that a
// full disk could make stick), someone else's file stays, and once space is
// freed another process takes the lock, as does the next TryAcquire here.
func TestLockOnFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=16k,mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	d, err := NewLockDir(filepath.Join(dir, "locks"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	existing := filepath.Join(dir, "d.pid")
	if err := os.WriteFile(existing, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	filler := filepath.Join(dir, "filler")
	fill, _ := os.Create(filler)
	for {
		if _, err := fill.Write(make([]byte, 512)); err != nil {
			break
		}
	}
	fill.Close()

	tries := []struct {
		name string
		path string
		try  func() (*Lock, error)
	}{
		{"existing file", existing, func() (*Lock, error) { return TryAcquire(existing, nil) }},
		{"new file", filepath.Join(dir, "new.pid"), func() (*Lock, error) { return TryAcquire(filepath.Join(dir, "new.pid"), nil) }},
		{"LockDir", d.Path("job"), func() (*Lock, error) { return d.TryAcquire("job", nil) }},
	}
	for _, c := range tries {
		_, err := c.try()
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), c.path) {
			t.Fatalf("%s: TryAcquire on a full disk = %v; want ENOSPC naming %s", c.name, err, c.path)
		}
		if _, err := os.Lstat(c.path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: after ENOSPC the lock file is still there (%v); want nothing left", c.name, err)
		}
	}
	if _, err := os.Stat(filler); err != nil {
		t.Fatalf("someone else's file went: %v", err)
	}
	os.Remove(filler)
	other := startLockChild(t, "lock-hold", lockPathEnv+"="+existing)
	other.expect(t, "locked")
	other.finish(t)
	for _, c := range tries {
		l, err := c.try()
		if err != nil {
			t.Fatalf("%s: TryAcquire with space again: %v", c.name, err)
		}
		wantOwnRecord(t, c.path, l)
		l.Release()
	}
}

// TestLockPermissionFlip: mode changes on the held file do not disturb the
// holder, which still releases and removes it.
func TestLockPermissionFlip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	if err := l.Check(); err != nil {
		t.Errorf("Check after chmod 0 = %v", err)
	}
	if err := l.Release(); err != nil {
		t.Errorf("Release after chmod 0 = %v", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the released file is still there: %v", err)
	}
}

// TestLockDirectoryRemovedWhileHeld: someone removes the whole lock
// directory under a holder. The holder learns of it from Check, a new lock
// in a recreated directory is independent, and the old holder's Release
// leaves the new holder's file alone.
func TestLockDirectoryRemovedWhileHeld(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "d.pid")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := l.Check(); err == nil {
		t.Error("Check after the directory went = nil; want an error")
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	l2, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("TryAcquire in the recreated directory: %v", err)
	}
	// The path now names the new holder's file: Release drops the old
	// lock and leaves that file alone.
	if err := l.Release(); err != nil {
		t.Errorf("Release of a lock whose file went = %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("releasing the old lock removed the new holder's file: %v", err)
	}
	wantOwnRecord(t, path, l2)
	l2.Release()
}
