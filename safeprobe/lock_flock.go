//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"

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
	fd   int
	k    fileKey
	uid  fileOwner
	mode uint32 // st_mode when opened
}

// fileOwner is a file's owner: its user ID.
type fileOwner uint32

// at runs fn with the directory descriptor and name that p is reached by:
// the current directory and the whole path, or a LockDir's directory and
// the name in it.
func (p lockPath) at(fn func(dirfd int, name string) error) error {
	dirfd := unix.AT_FDCWD
	if p.dir != nil {
		defer runtime.KeepAlive(p.dir.f) // its finalizer must not close the descriptor in use
		dirfd = int(p.dir.f.Fd())
	}
	return ignoringEINTR(func() error { return fn(dirfd, p.rel()) })
}

// dirAt runs fn with the directory descriptor and name of p's directory,
// as at does for p: the directory part of the whole path as given (not
// cleaned: "link/.." is not the link's directory), or the LockDir's
// directory itself.
func (p lockPath) dirAt(fn func(dirfd int, dir string) error) error {
	if p.dir != nil {
		return lockPath{path: p.path, dir: p.dir, name: "."}.at(fn)
	}
	dir := "."
	if i := strings.LastIndexByte(p.path, '/'); i == 0 {
		dir = "/"
	} else if i > 0 {
		dir = p.path[:i]
	}
	return lockPath{path: dir}.at(fn)
}

// rel is the name p is reached by from the directory at passes.
func (p lockPath) rel() string {
	if p.dir == nil {
		return p.path
	}
	return p.name
}

// lstat is lstat(2) of p.
func (p lockPath) lstat(st *unix.Stat_t) error {
	return p.at(func(dirfd int, name string) error {
		return unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
	})
}

// openLockFileAt opens the lock file p: for writing (creating it with mode
// if missing) when write is set, read-only otherwise. It refuses, before
// opening and again on the open file, anything but a regular file with one
// link, and for writing a file another user owns. O_NOFOLLOW refuses a
// symlink, O_NONBLOCK keeps a FIFO swapped in after the check from
// blocking the open, O_CLOEXEC keeps the lock out of children. A file it
// creates is locked before anyone else can open it, where createLocked can
// do that; the descriptor it returns is the one the lock is taken on.
func openLockFileAt(p lockPath, write bool, mode os.FileMode) (lockFile, error) {
	path := p.path
	var st unix.Stat_t
	err := p.lstat(&st)
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
	existed := err == nil
	fd := -1
	if !existed { // missing: make it locked, where the OS can
		fd = createLocked(p, mode)
	}
	if fd >= 0 {
		err = nil
	} else {
		err = p.at(func(dirfd int, name string) (err error) {
			fd, err = unix.Openat(dirfd, name, flags, uint32(mode.Perm()))
			return err
		})
	}
	if err != nil {
		perr := &fs.PathError{Op: "open", Path: path, Err: err}
		// Something put in place after the check: a directory (EISDIR),
		// a socket (ENXIO), a symlink (ELOOP on Linux and macOS, EMLINK
		// on FreeBSD, EFTYPE on NetBSD: told from their other meanings by
		// looking again).
		switch {
		case errors.Is(err, unix.EACCES) && existed && write && st.Mode&0o600 != 0o600:
			// A Mode of 0400, say, from an older holder that died: the
			// lock cannot be had until the file is fixed, however long
			// one waits.
			return nil, fmt.Errorf("mode %#o lacks the owner's read and write, so no holder but root can open it (chmod u+rw, or remove it): %w",
				st.Mode&0o7777, perr)
		case errors.Is(err, unix.EISDIR):
			return nil, fmt.Errorf("%w: a directory: %w", ErrUnsafePath, perr)
		case errors.Is(err, unix.ENXIO):
			return nil, fmt.Errorf("%w: not a regular file: %w", ErrUnsafePath, perr)
		case !errors.Is(err, unix.ENOENT) && p.lstat(&st) == nil:
			if err := checkLockStat(&st, false); err != nil {
				return nil, fmt.Errorf("%w: %w", err, perr)
			}
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
		uid:  fileOwner(st.Uid),
		mode: uint32(st.Mode),
	}, nil
}

// checkLockStat refuses a file that is not a regular file with one link,
// one that group or others may write, or, for writing, one another user
// owns.
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
		// Where fs.protected_hardlinks is 0 (Linux) or there is no such
		// guard (macOS, the BSDs), any user may link any file they can
		// reach, root's too, at a name in a directory they may write.
		reason = fmt.Sprintf("has %d hard links: it may be another file's other name, put there by anyone who may write the directory "+
			"(any file of anyone's where fs.protected_hardlinks is 0); remove this name to free the path", st.Nlink)
	case uint32(st.Mode)&0o022 != 0:
		// Whoever may write the record may name any process in it.
		reason = fmt.Sprintf("writable by group or others (mode %#o)", uint32(st.Mode)&0o7777)
	case write && int(st.Uid) != os.Geteuid():
		reason = fmt.Sprintf("owned by uid %d, not by this process's uid %d", st.Uid, os.Geteuid())
	default:
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnsafePath, reason)
}

func (f *unixLockFile) key() fileKey { return f.k }

func (f *unixLockFile) owner() fileOwner { return f.uid }

// trustedOwner refuses an owner other than this process's user or root.
func trustedOwner(uid fileOwner, what string) error {
	if euid := os.Geteuid(); int(uid) != euid && uid != 0 {
		return fmt.Errorf("%w: %s owned by uid %d, neither this process's uid %d nor root", ErrUnsafePath, what, uid, euid)
	}
	return nil
}

// ownerRuns refuses a process whose effective user ID is not uid, as
// processUID reads it (ErrUnsupported where no process table is read).
//
//	no process: processUID's error
//	EPERM:      nil if it runs as uid, else ErrUnsafePath
//	zombie:     as EPERM, by the user ID it keeps until it is reaped
//	thread ID:  as EPERM on Linux, by the thread's user ID; elsewhere processUID's answer
func ownerRuns(pid int, uid fileOwner) error {
	got, err := processUID(pid)
	if err != nil {
		return fmt.Errorf("owner of process %d: %w", pid, err)
	}
	if fileOwner(got) != uid {
		return fmt.Errorf("%w: process %d runs as uid %d, but the lock file is uid %d's: it cannot have written the record", ErrUnsafePath, pid, got, uid)
	}
	return nil
}

func (f *unixLockFile) tryLock() error {
	return f.flock(unix.LOCK_EX | unix.LOCK_NB)
}

// probeHeld asks first whether process pid (the record's, or 0) holds a
// flock on the file, shared or exclusive, through a descriptor of its own
// (pidLocks, Linux), then whether the table of locks shows the file free
// (lockTableFree, Linux), and otherwise takes the exclusive lock itself,
// with TryAcquire's grace retries so that another probe's moment does not
// count, and drops it at once: a shared lock would be granted beside
// another shared one, which stops TryAcquire all the same.
func (f *unixLockFile) probeHeld(ctx context.Context, pid int) (bool, error) {
	if pid > 0 {
		switch held, _, err := pidLocks(ctx, pid, f.k, true); {
		case err != nil:
			return false, err
		case held:
			return true, nil
		}
	}
	if free, err := lockTableFree(ctx, f.fd); free || err != nil {
		return false, err
	}
	switch _, err := lockWithGrace(f); {
	case errors.Is(err, errWouldBlock):
		return true, nil
	case err != nil:
		return false, err
	}
	return false, f.unlock()
}

// othersMayOpen refuses a file its group or others may read: they may
// open it, and so lock it.
func (f *unixLockFile) othersMayOpen() error {
	if f.mode&0o044 != 0 {
		return fmt.Errorf("%w: readable by group or others (mode %#o), who may so hold its lock", ErrUnsafePath, f.mode&0o7777)
	}
	return nil
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

// pathKey names the file p names, not following a symlink.
func pathKey(p lockPath) (fileKey, error) {
	var st unix.Stat_t
	if err := p.lstat(&st); err != nil {
		return fileKey{}, &fs.PathError{Op: "lstat", Path: p.path, Err: err}
	}
	return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}

// removeLockFile unlinks p; the caller holds the lock on f and has checked
// that p names f.
func removeLockFile(f lockFile, p lockPath) error { return removeName(p) }

// removeName unlinks p.
func removeName(p lockPath) error {
	if err := p.at(func(dirfd int, name string) error { return unix.Unlinkat(dirfd, name, 0) }); err != nil {
		return &fs.PathError{Op: "unlink", Path: p.path, Err: err}
	}
	return nil
}

// renameName renames from to to, which share a directory.
func renameName(from, to lockPath) error {
	return from.at(func(dirfd int, name string) error {
		return unix.Renameat(dirfd, name, dirfd, to.rel())
	})
}

// linkName links to to the file from names; both share a directory.
func linkName(from, to lockPath) error {
	return from.at(func(dirfd int, name string) error {
		return unix.Linkat(dirfd, name, dirfd, to.rel(), 0)
	})
}

// openLockDir opens the directory dir without following a symlink, and
// refuses it unless checkLockDir accepts it. The LockDir then works in the
// directory so opened, whatever is put at its path later.
func openLockDir(dir string) (*os.File, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		perr := &fs.PathError{Op: "open", Path: dir, Err: err}
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.EMLINK) {
			return nil, fmt.Errorf("%w: not a directory, or a symbolic link: %w", ErrUnsafePath, perr)
		}
		return nil, perr
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "fstat", Path: dir, Err: err}
	}
	if err := checkLockDir(&st, dir); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), dir), nil
}

// dirLinked reports whether the open directory d is still in the file
// system (not removed).
func dirLinked(d *os.File) bool {
	var st unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Fstat(int(d.Fd()), &st) })
	runtime.KeepAlive(d)
	return err == nil && st.Nlink > 0
}

// createMarker creates the file name for a takeover marker to be written
// into, mode 0600, failing if anything is there.
func createMarker(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
}

// makeLockDir makes the directory dir and those above it, mode 0700.
func makeLockDir(dir string) error { return os.MkdirAll(dir, 0o700) }

// checkLockDir refuses a directory another user owns (who could remove a
// held lock file, so that a second process takes the same lock), and one
// its group or anyone may write to unless it is sticky, so others can
// neither remove nor replace this user's lock files. The error names the
// directory and its owner.
func checkLockDir(st *unix.Stat_t, dir string) error {
	if err := trustedOwner(fileOwner(st.Uid), "directory "+dir); err != nil {
		return err
	}
	if mode := uint32(st.Mode); mode&0o022 != 0 && mode&unix.S_ISVTX == 0 {
		who := "group-writable"
		if mode&0o002 != 0 {
			who = "world-writable"
		}
		return fmt.Errorf("%w: %s directory %s without the sticky bit (owner uid %d, mode %#o): others may rename or replace what it holds",
			ErrUnsafePath, who, dir, st.Uid, mode&0o7777)
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
