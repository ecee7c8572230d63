//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEveryEntryPointWalksTheLockPath: nobody's symbolic link in a sticky
// directory leads to a directory only root may write. Every entry point
// that writes under a lock path (or signals its holder) refuses the path
// below the link, naming it and its owner, and writes nothing there: with
// fs.protected_symlinks at 0 (or for a link in a directory that is not
// sticky) the kernel follows it for root, and RequestTakeover, which did
// not walk the path, wrote its marker over root's file of that name.
func TestEveryEntryPointWalksTheLockPath(t *testing.T) {
	requireRoot(t)
	uid := nobodyIDs(t)
	target := t.TempDir() // root's, mode 0700
	link := filepath.Join(stickyDir(t), "link")
	attack(t, `ln -s "$1" "$2"`, target, link)
	want := fmt.Sprintf("symbolic link %s owned by uid %d", link, uid)
	path := filepath.Join(link, "x.lock")
	const precious = "root's own file\n"
	// reset leaves in target root's file alone, as each call must.
	reset := func() {
		ents, _ := os.ReadDir(target)
		for _, e := range ents {
			os.RemoveAll(filepath.Join(target, e.Name()))
		}
		if err := os.WriteFile(filepath.Join(target, "x.lock.takeover"), []byte(precious), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range writingEntryPoints(path, filepath.Join(link, "locks", "app"), syscall.SIGUSR1) {
		t.Run(c.name, func(t *testing.T) {
			reset()
			if err := c.call(); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s below nobody's symlink = %v; want ErrUnsafePath naming %q", c.name, err, want)
			}
			ents, _ := os.ReadDir(target)
			if len(ents) != 1 || readFile(t, filepath.Join(target, "x.lock.takeover")) != precious {
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				t.Errorf("%s wrote through nobody's symlink into root's directory (there now: %q)", c.name, names)
			}
		})
	}
}

func init() {
	// acquire-print runs Acquire of lockPathEnv for up to 5 s and prints
	// "result <error> after <time>".
	childModes["acquire-print"] = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		l, err := Acquire(ctx, os.Getenv(lockPathEnv), nil)
		if err == nil {
			l.Release()
		}
		fmt.Printf("result permission=%v msg=%v after %v\n", errors.Is(err, fs.ErrPermission), err, time.Since(start).Round(time.Millisecond))
	}
}

// TestLockModeWithoutOwnerWriteRefused: a LockOptions.Mode without the
// owner's read and write (0400) makes a file that no later holder but root
// can open once its holder dies: every TryAcquire after fails with
// permission denied, however long Acquire would wait. TryAcquire refuses
// such a Mode at once and makes no file. A file left so by an older
// holder makes nobody's Acquire end at once with a permission error that
// says what is wrong with the file and how to fix it.
func TestLockModeWithoutOwnerWriteRefused(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []os.FileMode{0o400, 0o200, 0o100} {
		path := filepath.Join(dir, fmt.Sprintf("m%o.lock", mode))
		l, err := TryAcquire(path, &LockOptions{Mode: mode})
		if err == nil {
			l.Release()
		}
		if !errors.Is(err, fs.ErrInvalid) || !strings.Contains(err.Error(), "lacks the owner's read and write") {
			t.Errorf("TryAcquire with Mode %#o = %v; want fs.ErrInvalid saying the owner's read and write are missing", mode, err)
		}
		if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("TryAcquire with Mode %#o left a file: %v", mode, err)
		}
	}

	requireRoot(t)
	uid := nobodyIDs(t)
	own := filepath.Join(publicDir(t), "nobody")
	if err := os.Mkdir(own, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(own, uid, uid); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(own, "old.lock")
	if err := os.WriteFile(path, []byte("1\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, uid, uid); err != nil {
		t.Fatal(err)
	}
	out := startChildCommand(t, nobodyCommand(t, "acquire-print", lockPathEnv+"="+path)).expect(t, "result")
	msg, after, _ := strings.Cut(out, " after ")
	d, err := time.ParseDuration(after)
	if err != nil {
		t.Fatalf("acquire-print: %q", out)
	}
	if !strings.Contains(msg, "permission=true") || !strings.Contains(msg, "mode 0400 lacks the owner's read and write") || !strings.Contains(msg, path) {
		t.Errorf("nobody's Acquire of its own mode-0400 file: %s; want a permission error naming the file and its mode", msg)
	}
	if d > time.Second {
		t.Errorf("nobody's Acquire of an unopenable file returned after %v; want at once", d)
	}
}
