package safeprobe

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// LockDir holds named locks in one directory. A key (any string: a user
// name, a URL, a job ID) maps to a file name callers never build
// themselves: up to 32 characters of the key with everything but ASCII
// letters, digits, '_' and (not first) '-' replaced by '_', for people listing the
// directory, then the SHA-256 of the key in hex, which alone decides the
// name. No key can reach outside the directory or collide with another.
type LockDir struct {
	dir string
	h   *dirHandle // the directory as checked, where the OS can open files in it

	mu     sync.Mutex
	closed bool
}

// dirHandle is a LockDir's open directory, shared by the LockDir and the
// Locks taken through it, and closed when the last of them lets it go: a
// LockDir closed while its Locks are held does not pull the directory from
// under them. A nil *dirHandle (the OS keeps no directory open) does
// nothing.
type dirHandle struct {
	f *os.File

	mu   sync.Mutex
	refs int
}

// keep takes a reference; the caller must hold one already.
func (h *dirHandle) keep() {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.refs++
	h.mu.Unlock()
}

// drop lets a reference go, closing the directory with the last.
func (h *dirHandle) drop() error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.refs--; h.refs == 0 {
		return h.f.Close()
	}
	return nil
}

// lockDirPrefix bounds the readable part of a lock file name.
const lockDirPrefix = 32

// NewLockDir returns the lock directory dir, creating it (mode 0700) if
// missing. It refuses a symlink, a non-directory, and a directory that
// another user could replace or empty: on Unix one another user owns (only
// this process's user and root are trusted) or anyone may write to unless
// it has the sticky bit (like /tmp), and on Windows one whose owner SID is
// not trusted or whose DACL lets another principal remove or rename what
// it holds (see the package doc). Every directory above it must pass the
// same test, as must each symbolic link on the way; the error wraps
// ErrUnsafePath and names the directory and its owner. On Unix the
// directory stays open, and lock files are opened, checked and removed
// relative to it, never following a symlink: a directory or symlink put at
// its path later is not used. Close closes it once every Lock taken
// through it is released.
func NewLockDir(dir string) (*LockDir, error) {
	fail := func(err error) (*LockDir, error) {
		return nil, &LockError{Op: "lockdir", Path: dir, Err: err}
	}
	if err := validLockPath(dir, newLockDirPath); err != nil {
		return fail(err)
	}
	dir = filepath.Clean(dir)
	// Walked before anything is made: a directory made below another
	// user's symlink would be made wherever they point it. Walked again
	// once made, as another user may have put a directory of theirs at a
	// missing name, in a sticky directory, in between.
	if _, err := checkedPath(dir, newLockDirPath); err != nil {
		return fail(err)
	}
	fi, err := os.Lstat(dir)
	made := os.IsNotExist(err)
	if made {
		if err := makeLockDir(dir); err != nil {
			return fail(err)
		}
		fi, err = os.Lstat(dir)
	}
	switch {
	case err != nil:
		return fail(err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fail(fmt.Errorf("%w: a symbolic link", ErrUnsafePath))
	case !fi.IsDir():
		return fail(fmt.Errorf("%w: not a directory", ErrUnsafePath))
	}
	if made {
		if _, err := checkedPath(dir, lockDirPath); err != nil {
			return fail(err)
		}
	}
	f, err := openLockDir(dir)
	if err != nil {
		return fail(err)
	}
	d := &LockDir{dir: dir}
	if f != nil {
		d.h = &dirHandle{f: f, refs: 1}
	}
	return d, nil
}

// Close lets the directory go: it is closed now, or once the last Lock
// taken through d is released. Later calls of d's methods fail with an
// error wrapping fs.ErrClosed, as does a second Close; Locks already held
// keep working.
func (d *LockDir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return &LockError{Op: "lockdir", Path: d.dir, Err: fs.ErrClosed}
	}
	d.closed = true
	if err := d.h.drop(); err != nil {
		return &LockError{Op: "lockdir", Path: d.dir, Err: err}
	}
	return nil
}

// use names key's lock file in the directory d holds open, with a
// reference to it that the caller drops when done; it fails once d is
// closed.
func (d *LockDir) use(op, key string) (lockPath, error) {
	name := lockName(key)
	loc := lockPath{path: filepath.Join(d.dir, name), dir: d.h, name: name}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return loc, &LockError{Op: op, Path: loc.path, Err: fmt.Errorf("lock directory closed: %w", fs.ErrClosed)}
	}
	d.h.keep()
	return loc, nil
}

// Dir returns the directory.
func (d *LockDir) Dir() string { return d.dir }

// Path returns the lock file path for key.
func (d *LockDir) Path(key string) string {
	return filepath.Join(d.dir, lockName(key))
}

// lockName is the name of key's lock file.
func lockName(key string) string {
	sum := sha256.Sum256([]byte(key))
	name := make([]byte, 0, lockDirPrefix+1+2*len(sum)+len(".lock"))
	for i := 0; i < len(key) && i < lockDirPrefix; i++ {
		switch c := key[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-' && i > 0:
			name = append(name, c)
		default:
			name = append(name, '_')
		}
	}
	if len(name) > 0 {
		name = append(name, '-')
	}
	name = append(name, hex.EncodeToString(sum[:])...)
	name = append(name, ".lock"...)
	return string(name)
}

// TryAcquire is TryAcquire of key's path.
func (d *LockDir) TryAcquire(key string, opts *LockOptions) (*Lock, error) {
	loc, err := d.use("acquire", key)
	if err != nil {
		return nil, err
	}
	defer loc.dir.drop()
	return tryAcquire(context.Background(), loc, opts)
}

// Acquire is Acquire of key's path.
func (d *LockDir) Acquire(ctx context.Context, key string, opts *LockOptions) (*Lock, error) {
	loc, err := d.use("acquire", key)
	if err != nil {
		return nil, err
	}
	defer loc.dir.drop()
	return acquire(ctx, loc, opts)
}

// Inspect is Inspect of key's path.
func (d *LockDir) Inspect(key string) (Status, error) {
	return d.InspectContext(context.Background(), key)
}

// InspectContext is InspectContext of key's path.
func (d *LockDir) InspectContext(ctx context.Context, key string) (Status, error) {
	loc, err := d.use("inspect", key)
	if err != nil {
		return Status{Path: loc.path}, err
	}
	defer loc.dir.drop()
	return inspect(ctx, loc, inspectHeld)
}
