//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// What the directories above a lock let another user do to a root
// process, tried with nobody's real files and processes.

// wantAncestorRefused checks that TryAcquire and SignalOwner of path
// refuse with ErrUnsafePath, naming want (a directory or link and its
// owner). If TryAcquire takes the lock instead, swap (run as nobody) must
// not let a second TryAcquire take it too.
func wantAncestorRefused(t *testing.T, path, want string, swap func()) {
	t.Helper()
	first, err := TryAcquire(path, nil)
	if err == nil {
		defer first.Release()
		swap()
		if second, err := TryAcquire(path, nil); err == nil {
			second.Release()
			t.Fatalf("two holders of %s at once: nobody swapped what is above it", path)
		}
		t.Fatalf("TryAcquire(%s) = nil; want ErrUnsafePath naming %q", path, want)
	}
	if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), want) {
		t.Errorf("TryAcquire(%s) = %v; want ErrUnsafePath naming %q", path, err, want)
	}
	if err := SignalOwner(path, syscall.SIGUSR1); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), want) {
		t.Errorf("SignalOwner(%s) = %v; want ErrUnsafePath naming %q", path, err, want)
	}
}

// TestLockAncestorAnotherUserOwns: a directory nobody made in a sticky
// directory like /tmp holds root's lock directory. Nobody may rename that
// away while a root process holds a lock in it, and make another in its
// place, where a second root process takes the same lock. NewLockDir,
// TryAcquire and SignalOwner refuse the path, naming nobody's directory and
// its owner, as they do when NewLockDir would make the lock directory below
// a directory nobody made first.
func TestLockAncestorAnotherUserOwns(t *testing.T) {
	requireRoot(t)
	uid := nobodyIDs(t)
	sticky := stickyDir(t)
	evil := filepath.Join(sticky, "evil")
	attack(t, `mkdir -m 0755 "$1"`, evil)
	locks := filepath.Join(evil, "locks")
	if err := os.Mkdir(locks, 0o700); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("directory %s owned by uid %d", evil, uid)
	if _, err := NewLockDir(locks); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), want) {
		t.Errorf("NewLockDir(%s) = %v; want ErrUnsafePath naming %q", locks, err, want)
	}
	wantAncestorRefused(t, filepath.Join(locks, "app.lock"), want, func() {
		attack(t, `mv "$1/locks" "$1/moved" && mkdir -m 0777 "$1/locks"`, evil)
	})

	// NewLockDir making the directories: one on the way was nobody's.
	early := filepath.Join(sticky, "early")
	attack(t, `mkdir -m 0777 "$1"`, early)
	want = fmt.Sprintf("directory %s owned by uid %d", early, uid)
	if _, err := NewLockDir(filepath.Join(early, "a", "locks")); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), want) {
		t.Errorf("NewLockDir below a directory nobody made first = %v; want ErrUnsafePath naming %q", err, want)
	}

	// A relative path: the working directory's ancestors count too.
	out := startLockChild(t, "lock-try", lockPathEnv+"=app.lock", lockChdirEnv+"="+locks).expect(t, "result")
	if want := fmt.Sprintf("directory %s owned by uid %d", evil, uid); !strings.Contains(out, "unsafe=true") || !strings.Contains(out, want) {
		t.Errorf("TryAcquire(app.lock) in %s: %s; want ErrUnsafePath naming %s", locks, out, evil)
	}

	// A sticky directory root owns, like /tmp, is fine.
	if d, err := NewLockDir(filepath.Join(sticky, "fine")); err != nil {
		t.Errorf("NewLockDir below a sticky directory of root's = %v", err)
	} else {
		d.Close()
	}
}

// TestLockAncestorSymlinkAnotherUserOwns: nobody's symbolic link in a
// sticky directory, to a directory of root's: a lock taken through it goes
// wherever nobody points the link next. Refused, naming the link and its
// owner.
func TestLockAncestorSymlinkAnotherUserOwns(t *testing.T) {
	requireRoot(t)
	uid := nobodyIDs(t)
	sticky := stickyDir(t)
	a, b := t.TempDir(), t.TempDir()
	link := filepath.Join(sticky, "link")
	attack(t, `ln -s "$1" "$2"`, a, link)
	want := fmt.Sprintf("symbolic link %s owned by uid %d", link, uid)
	wantAncestorRefused(t, filepath.Join(link, "app.lock"), want, func() {
		attack(t, `ln -s "$1" "$2.new" && mv -T "$2.new" "$2"`, b, link)
	})
}

// TestLockAncestorDotDotAfterSymlink: "link/.." is the parent of the link's
// target, not the directory the link is in, and the walk must check what
// the kernel resolves. Root's link leads into nobody's directory, whose
// sibling of the target the path then names.
func TestLockAncestorDotDotAfterSymlink(t *testing.T) {
	requireRoot(t)
	uid := nobodyIDs(t)
	sticky := stickyDir(t)
	nob := filepath.Join(sticky, "nob")
	attack(t, `mkdir -m 0755 "$1" "$1/sub" "$1/x"`, nob)
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(nob, "sub"), filepath.Join(root, "lnk")); err != nil {
		t.Fatal(err)
	}
	path := root + "/lnk/../x/app.lock" // the kernel: nob/x/app.lock; filepath.Clean: root/x/app.lock
	want := fmt.Sprintf("directory %s owned by uid %d", nob, uid)
	wantAncestorRefused(t, path, want, func() {
		attack(t, `mv "$1/x" "$1/moved" && mkdir -m 0777 "$1/x"`, nob)
	})
}

// TestLockAncestorGroupWritable: a directory of root's that its group may
// write, without the sticky bit, lets the group's members rename what it
// holds. Refused, naming it and its owner; with the sticky bit it is fine.
func TestLockAncestorGroupWritable(t *testing.T) {
	requireRoot(t)
	shared := publicDir(t)
	if err := os.Chmod(shared, 0o775); err != nil {
		t.Fatal(err)
	}
	locks := filepath.Join(shared, "locks")
	if err := os.Mkdir(locks, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(locks, "app.lock")
	want := fmt.Sprintf("group-writable directory %s without the sticky bit (owner uid 0", shared)
	if l, err := TryAcquire(path, nil); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), want) {
		if err == nil {
			l.Release()
		}
		t.Errorf("TryAcquire below a group-writable directory = %v; want ErrUnsafePath naming %q", err, want)
	}
	os.Chmod(shared, 0o775|os.ModeSticky)
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("TryAcquire below a sticky group-writable directory = %v", err)
	}
	l.Release()
}
