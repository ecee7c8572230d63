//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// openLockFileAt opens the lock file p: for writing (creating it with mode
// if missing) when write is set, read-only otherwise. It refuses, before
// opening and again on the open file, anything but a regular file with one
// link, and for writing a file another user owns. O_NOFOLLOW refuses a
// symlink, O_NONBLOCK keeps a FIFO swapped in after the check from
// blocking the open, O_CLOEXEC keeps the lock out of children. For
// writing, a missing file is made first, locked before anyone else can
// open it, where createLocked can do that: it is put at its name only
// where nothing is there, never through what is (linkat, or O_EXCL), so it
// needs no look before; a name taken is looked at and opened as a file
// that was there. The descriptor it returns is the one the lock is taken
// on.
func openLockFileAt(p lockPath, write bool, mode os.FileMode) (lockFile, error) {
	path := p.path
	fd := -1
	if write {
		fd = createLocked(p, mode)
	}
	made := fd >= 0
	euid := -1 // the owner a file that was there must have: any, to read
	var st unix.Stat_t
	if !made {
		if write {
			euid = os.Geteuid()
		}
		var err error
		if fd, err = openExisting(p, write, mode, euid, &st); err != nil {
			return nil, err
		}
	}
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	// A file made here is this user's, whatever the user (no owner to
	// compare); what it is, and its links, are checked all the same.
	if err := checkLockStat(&st, euid); err != nil {
		unix.Close(fd)
		return nil, err
	}
	// O_NONBLOCK stays set: it changes nothing for a regular file's reads,
	// writes and flocks, and clearing it would cost a system call.
	return &unixLockFile{
		fd:     fd,
		path:   path,
		k:      fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)},
		uid:    fileOwner(st.Uid),
		mode:   uint32(st.Mode),
		locked: made,
		made:   made,
	}, nil
}

// openExisting opens the lock file p, which createLocked did not make (it
// is there, or the OS cannot make it locked), as openLockFileAt says; for
// writing, a missing file is made by name. st is left as lstat(2) found
// the file, for the caller to fstat into again.
func openExisting(p lockPath, write bool, mode os.FileMode, euid int, st *unix.Stat_t) (int, error) {
	path := p.path
	err := p.lstat(st)
	switch {
	case err == nil:
		if err := checkLockStat(st, euid); err != nil {
			return -1, err
		}
	case !write || !errors.Is(err, unix.ENOENT):
		// Nothing to read (a missing takeover marker, the common case,
		// costs one system call), or nothing safe to open.
		return -1, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	existed := err == nil
	flags := unix.O_CLOEXEC | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY
	if write {
		flags |= unix.O_RDWR | unix.O_CREAT
	} else {
		flags |= unix.O_RDONLY
	}
	var fd int
	err = p.at(func(dirfd int, name string) (err error) {
		fd, err = unix.Openat(dirfd, name, flags, uint32(mode.Perm()))
		return err
	})
	if err == nil {
		return fd, nil
	}
	perr := &fs.PathError{Op: "open", Path: path, Err: err}
	// Something put in place after the check: a directory (EISDIR), a
	// socket (ENXIO), a symlink (ELOOP on Linux and macOS, EMLINK on
	// FreeBSD, EFTYPE on NetBSD: told from their other meanings by looking
	// again).
	switch {
	case errors.Is(err, unix.EACCES) && existed && write && st.Mode&0o600 != 0o600:
		// A Mode of 0400, say, from an older holder that died: the lock
		// cannot be had until the file is fixed, however long one waits.
		return -1, fmt.Errorf("mode %#o lacks the owner's read and write, so no holder but root can open it (chmod u+rw, or remove it): %w",
			st.Mode&0o7777, perr)
	case errors.Is(err, unix.EISDIR):
		return -1, fmt.Errorf("%w: a directory: %w", ErrUnsafePath, perr)
	case errors.Is(err, unix.ENXIO):
		return -1, fmt.Errorf("%w: not a regular file: %w", ErrUnsafePath, perr)
	case !errors.Is(err, unix.ENOENT) && p.lstat(st) == nil:
		if err := checkLockStat(st, -1); err != nil {
			return -1, fmt.Errorf("%w: %w", err, perr)
		}
	}
	return -1, perr
}

// checkLockStat refuses a file that is not a regular file with one link,
// one that group or others may write, or, for writing as user euid (-1
// for reading), one another user owns.
func checkLockStat(st *unix.Stat_t, euid int) error {
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
	case euid >= 0 && int(st.Uid) != euid:
		reason = fmt.Sprintf("owned by uid %d, not by this process's uid %d", st.Uid, euid)
	default:
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnsafePath, reason)
}
