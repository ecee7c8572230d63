//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// The Unix lock is flock(2) on the whole file: it belongs to the open file
// description, so it is released when the last descriptor to it closes,
// which the kernel does for a process that dies however it dies.

// fileKey names a file: device and inode.
type fileKey struct{ dev, ino uint64 }

// staleReleaseWait is how long TryAcquire keeps trying a lock whose
// recorded holder is gone. The kernel drops a flock when the holder's last
// descriptor closes, before the holder can even be reaped: no wait.
const staleReleaseWait = 0

type unixLockFile struct {
	*os.File
	fd int
	k  fileKey
}

// openLockFile opens the lock file at path: for writing (creating it with
// mode if missing) when write is set, read-only otherwise. It refuses,
// before opening and again on the open file, anything but a regular file
// with one link, and for writing a file another user owns. O_NOFOLLOW
// refuses a symlink, O_NONBLOCK keeps a FIFO swapped in after the check
// from blocking the open, O_CLOEXEC keeps the lock out of children.
func openLockFile(path string, write bool, mode os.FileMode) (lockFile, error) {
	var st unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Lstat(path, &st) })
	switch {
	case err == nil:
		if err := checkLockStat(&st, write); err != nil {
			return nil, err
		}
	case !write || !errors.Is(err, unix.ENOENT):
		// Nothing to read (a missing takeover marker, the common case,
		// costs one system call), or nothing safe to open.
		return nil, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	flags := unix.O_CLOEXEC | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY
	if write {
		flags |= unix.O_RDWR | unix.O_CREAT
	} else {
		flags |= unix.O_RDONLY
	}
	var fd int
	err = ignoringEINTR(func() (err error) {
		fd, err = unix.Open(path, flags, uint32(mode.Perm()))
		return err
	})
	if err != nil {
		perr := &fs.PathError{Op: "open", Path: path, Err: err}
		// A symlink put in place after the check: ELOOP on Linux and
		// macOS, EMLINK on FreeBSD, EFTYPE on NetBSD.
		if !errors.Is(err, unix.ENOENT) && unix.Lstat(path, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return nil, fmt.Errorf("%w: a symbolic link: %w", ErrUnsafePath, perr)
		}
		return nil, perr
	}
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if err := checkLockStat(&st, write); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "fcntl", Path: path, Err: err}
	}
	return &unixLockFile{
		File: os.NewFile(uintptr(fd), path),
		fd:   fd,
		k:    fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)},
	}, nil
}

// checkLockStat refuses a file that is not a regular file with one link,
// or, for writing, one another user owns.
func checkLockStat(st *unix.Stat_t, write bool) error {
	var reason string
	switch mode := uint32(st.Mode) & unix.S_IFMT; {
	case mode == unix.S_IFLNK:
		reason = "a symbolic link"
	case mode == unix.S_IFDIR:
		reason = "a directory"
	case mode == unix.S_IFIFO:
		reason = "a FIFO"
	case mode == unix.S_IFSOCK:
		reason = "a socket"
	case mode == unix.S_IFCHR || mode == unix.S_IFBLK:
		reason = "a device"
	case mode != unix.S_IFREG:
		reason = fmt.Sprintf("not a regular file (type %#o)", mode)
	case uint64(st.Nlink) > 1:
		reason = fmt.Sprintf("has %d hard links", st.Nlink)
	case write && int(st.Uid) != os.Geteuid():
		reason = fmt.Sprintf("owned by uid %d, not by this process's uid %d", st.Uid, os.Geteuid())
	default:
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnsafePath, reason)
}

func (f *unixLockFile) key() fileKey { return f.k }

func (f *unixLockFile) tryLock() error {
	return f.flock(unix.LOCK_EX | unix.LOCK_NB)
}

func (f *unixLockFile) probeHeld() (bool, error) {
	switch err := f.flock(unix.LOCK_SH | unix.LOCK_NB); {
	case errors.Is(err, errWouldBlock):
		return true, nil
	case err != nil:
		return false, err
	}
	return false, f.unlock()
}

func (f *unixLockFile) unlock() error { return f.flock(unix.LOCK_UN) }

func (f *unixLockFile) flock(how int) error {
	err := ignoringEINTR(func() error { return unix.Flock(f.fd, how) })
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EWOULDBLOCK):
		return errWouldBlock
	}
	return &fs.PathError{Op: "flock", Path: f.Name(), Err: err}
}

// pathKey names the file at path, not following a symlink.
func pathKey(path string) (fileKey, error) {
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Lstat(path, &st) }); err != nil {
		return fileKey{}, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}

// removeLockFile unlinks path; the caller holds the lock on f and has
// checked that path names f.
func removeLockFile(f lockFile, path string) error {
	if err := ignoringEINTR(func() error { return unix.Unlink(path) }); err != nil {
		return &fs.PathError{Op: "unlink", Path: path, Err: err}
	}
	return nil
}

// checkLockDir refuses a directory anyone may write to unless it is
// sticky, so others can neither remove nor replace this user's lock files.
func checkLockDir(dir string, fi fs.FileInfo) error {
	if fi.Mode().Perm()&0o002 != 0 && fi.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("%w: world-writable directory without the sticky bit (mode %v)", ErrUnsafePath, fi.Mode())
	}
	return nil
}

func ignoringEINTR(fn func() error) error {
	for {
		if err := fn(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
