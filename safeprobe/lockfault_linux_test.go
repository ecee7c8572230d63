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
// write fails with ENOSPC: the lock is not kept, nothing is deleted, and
// once space is freed the next TryAcquire works.
func TestLockOnFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	path := filepath.Join(dir, "d.pid")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
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
	_, err := TryAcquire(path, nil)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), path) {
		t.Fatalf("TryAcquire on a full disk = %v; want ENOSPC naming %s", err, path)
	}
	if st, err := Inspect(path); err != nil || st.Held {
		t.Fatalf("after ENOSPC Inspect = %+v, %v; want the lock free", st, err)
	}
	if _, err := os.Stat(filler); err != nil {
		t.Fatalf("someone else's file went: %v", err)
	}
	os.Remove(filler)
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("TryAcquire with space again: %v", err)
	}
	wantOwnRecord(t, path, l)
	l.Release()
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
