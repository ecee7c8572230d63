package safeprobe

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// LockDir holds named locks in one directory. A key (any string: a user
// name, a URL, a job ID) maps to a file name callers never build
// themselves: up to 32 characters of the key with everything but ASCII
// letters, digits, '_' and (not first) '-' replaced by '_', for people listing the
// directory, then the SHA-256 of the key in hex, which alone decides the
// name. No key can reach outside the directory or collide with another.
type LockDir struct {
	dir string
	f   *os.File // the directory as checked, where the OS can open files in it
}

// lockDirPrefix bounds the readable part of a lock file name.
const lockDirPrefix = 32

// NewLockDir returns the lock directory dir, creating it (mode 0700) if
// missing. It refuses a symlink, a non-directory, on Unix a directory
// another user owns (only this process's user and root are trusted) or
// anyone may write to unless it has the sticky bit (like /tmp), and on
// Windows a directory whose owner SID is not trusted (see the package
// doc); the error wraps ErrUnsafePath. On Unix the directory stays open, and lock files are
// opened, checked and removed relative to it, never following a symlink:
// a directory or symlink put at its path later is not used. It is closed
// once neither the LockDir nor a Lock taken through it is reachable.
func NewLockDir(dir string) (*LockDir, error) {
	dir = filepath.Clean(dir)
	fail := func(err error) (*LockDir, error) {
		return nil, &LockError{Op: "lockdir", Path: dir, Err: err}
	}
	fi, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
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
	f, err := openLockDir(dir)
	if err != nil {
		return fail(err)
	}
	return &LockDir{dir: dir, f: f}, nil
}

// Dir returns the directory.
func (d *LockDir) Dir() string { return d.dir }

// Path returns the lock file path for key.
func (d *LockDir) Path(key string) string {
	return filepath.Join(d.dir, lockName(key))
}

// loc names key's lock file in the directory d holds open.
func (d *LockDir) loc(key string) lockPath {
	name := lockName(key)
	return lockPath{path: filepath.Join(d.dir, name), dir: d.f, name: name}
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
	name = hex.AppendEncode(name, sum[:])
	name = append(name, ".lock"...)
	return string(name)
}

// TryAcquire is TryAcquire of key's path.
func (d *LockDir) TryAcquire(key string, opts *LockOptions) (*Lock, error) {
	return tryAcquire(d.loc(key), opts)
}

// Acquire is Acquire of key's path.
func (d *LockDir) Acquire(ctx context.Context, key string, opts *LockOptions) (*Lock, error) {
	return acquire(ctx, d.loc(key), opts)
}

// Inspect is Inspect of key's path.
func (d *LockDir) Inspect(key string) (Status, error) {
	return inspect(d.loc(key), "inspect", nil)
}
