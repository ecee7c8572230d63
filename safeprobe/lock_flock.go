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

// closeUnlocks: the kernel drops a flock when the last descriptor of its
// open file closes, and the lock file's descriptor is this package's alone
// (close-on-exec).
const closeUnlocks = true

// unixLockFile is an open lock file: its descriptor, not an *os.File,
// whose making asks the descriptor's flags (a system call per TryAcquire)
// only to learn what the lock never uses.
type unixLockFile struct {
	fd   int
	path string
	k    fileKey
	uid  fileOwner
	mode uint32 // st_mode when opened
	// locked reports that this descriptor holds the flock: taken as the
	// file was made (createLocked), or by tryLock; dropped by unlock.
	locked bool
	// made reports that this open made the file, already locked, so no
	// one else has had it (fresh).
	made bool
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

func (f *unixLockFile) key() fileKey { return f.k }

func (f *unixLockFile) owner() fileOwner { return f.uid }

// trustedOwner refuses an owner other than this process's user or root.
func trustedOwner(uid fileOwner, what string) error {
	return trustedOwnerAs(uid, os.Geteuid(), what)
}

// trustedOwnerAs is trustedOwner for a process whose user is euid: the
// walk above a lock path asks it once.
func trustedOwnerAs(uid fileOwner, euid int, what string) error {
	if int(uid) != euid && uid != 0 {
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
	if f.locked { // made locked: flock again would only say so
		return nil
	}
	if err := f.flock(unix.LOCK_EX | unix.LOCK_NB); err != nil {
		return err
	}
	f.locked = true
	return nil
}

func (f *unixLockFile) fresh() bool { return f.made }

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

func (f *unixLockFile) unlock() error {
	f.locked = false
	return f.flock(unix.LOCK_UN)
}

func (f *unixLockFile) flock(how int) error {
	err := ignoringEINTR(func() error { return unix.Flock(f.fd, how) })
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EWOULDBLOCK):
		return errWouldBlock
	}
	return &fs.PathError{Op: "flock", Path: f.path, Err: err}
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
	if err := checkLockDir(&st, dir, os.Geteuid()); err != nil {
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

// checkLockDir refuses a directory another user owns than euid (who could
// remove a held lock file, so that a second process takes the same lock),
// and one its group or anyone may write to unless it is sticky, so others
// can neither remove nor replace this user's lock files. The error names
// the directory and its owner.
func checkLockDir(st *unix.Stat_t, dir string, euid int) error {
	if err := trustedOwnerAs(fileOwner(st.Uid), euid, "directory "+dir); err != nil {
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
