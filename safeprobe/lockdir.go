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
}

// lockDirPrefix bounds the readable part of a lock file name.
const lockDirPrefix = 32

// NewLockDir returns the lock directory dir, creating it (mode 0700) if
// missing. It refuses a symlink, a non-directory, on Unix a directory
// anyone may write to unless it has the sticky bit (like /tmp), and on
// Windows a directory whose owner SID is not trusted (see the package
// doc); the error wraps ErrUnsafePath.
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
	if err := checkLockDir(dir, fi); err != nil {
		return fail(err)
	}
	return &LockDir{dir: dir}, nil
}

// Dir returns the directory.
func (d *LockDir) Dir() string { return d.dir }

// Path returns the lock file path for key.
func (d *LockDir) Path(key string) string {
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
	return filepath.Join(d.dir, string(name))
}

// TryAcquire is TryAcquire of key's path.
func (d *LockDir) TryAcquire(key string, opts *LockOptions) (*Lock, error) {
	return TryAcquire(d.Path(key), opts)
}

// Acquire is Acquire of key's path.
func (d *LockDir) Acquire(ctx context.Context, key string, opts *LockOptions) (*Lock, error) {
	return Acquire(ctx, d.Path(key), opts)
}

// Inspect is Inspect of key's path.
func (d *LockDir) Inspect(key string) (Status, error) {
	return Inspect(d.Path(key))
}
