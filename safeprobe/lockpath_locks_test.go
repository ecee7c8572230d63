//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows

package safeprobe

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLockPathThatCannotBeALockFile: an empty path, or one whose form
// names a directory, can never be locked. Each entry point says so at
// once (fs.ErrInvalid); TryAcquire("") used to retry its create a hundred
// times and end with "the file at the path kept changing".
func TestLockPathThatCannotBeALockFile(t *testing.T) {
	dir := lockTestDir(t)
	sep := string(os.PathSeparator)
	for _, c := range []struct{ path, want string }{
		{"", "empty path"},
		{dir + sep, "ends in a separator"},
		{filepath.Join(dir, "sub") + sep, "ends in a separator"},
		{dir + sep + ".", `ends in "."`},
		{dir + sep + "..", `ends in ".."`},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		calls := map[string]error{}
		start := time.Now()
		l, err := TryAcquire(c.path, nil)
		if err == nil {
			l.Release()
		}
		calls["TryAcquire"] = err
		if l, err = Acquire(ctx, c.path, nil); err == nil {
			l.Release()
		}
		calls["Acquire"] = err
		_, calls["Inspect"] = Inspect(c.path)
		calls["SignalOwner"] = SignalOwner(c.path, os.Kill)
		calls["RequestTakeover"] = RequestTakeover(c.path, time.Hour)
		took := time.Since(start)
		cancel()
		for name, err := range calls {
			if !errors.Is(err, fs.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s(%q) = %v; want fs.ErrInvalid saying %q", name, c.path, err, c.want)
			}
		}
		if took > time.Second {
			t.Errorf("the calls on %q took %v; want each refused at once", c.path, took)
		}
	}
	if _, err := NewLockDir(""); !errors.Is(err, fs.ErrInvalid) || !strings.Contains(err.Error(), "empty path") {
		t.Errorf(`NewLockDir("") = %v; want fs.ErrInvalid, not the working directory`, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("refused paths left %d entries in %s", len(ents), dir)
	}
}

// entryPoint is one of the calls that write under a lock path, or signal
// the process its record names: each walks the path through checkedPath.
type entryPoint struct {
	name string
	call func() error
}

// writingEntryPoints are TryAcquire, Acquire (for up to 5 s), NewLockDir
// of dir, RequestTakeover and SignalOwner (with sig) of path; each
// releases or closes what it got.
func writingEntryPoints(path, dir string, sig os.Signal) []entryPoint {
	return []entryPoint{
		{"TryAcquire", func() error {
			l, err := TryAcquire(path, nil)
			if err == nil {
				l.Release()
			}
			return err
		}},
		{"Acquire", func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			l, err := Acquire(ctx, path, nil)
			if err == nil {
				l.Release()
			}
			return err
		}},
		{"NewLockDir", func() error {
			d, err := NewLockDir(dir)
			if err == nil {
				d.Close()
			}
			return err
		}},
		{"RequestTakeover", func() error { return RequestTakeover(path, time.Hour) }},
		{"SignalOwner", func() error { return SignalOwner(path, sig) }},
	}
}
