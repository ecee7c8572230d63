//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// A lock is only as safe as the directories above its file: whoever may
// rename or replace any of them can move a held lock file away and put
// another in its place, so that two processes hold one lock. checkAncestors
// walks a path from the root as the kernel resolves it, following symbolic
// links, and holds every directory on the way to checkLockDir's rules (as
// OpenSSH's StrictModes does for the files it reads). Once every component
// is one only this process's user or root may change, opening by the path
// later reaches what was checked.

// maxSymlinks bounds the links one walk follows, as the kernel's
// MAXSYMLINKS (40) does.
const maxSymlinks = 40

// checkAncestors checks every directory and symbolic link that resolving
// the directory part of path passes through, from the root, including a
// relative path's working directory. path itself (the lock file, or a
// LockDir's directory, which openLockDir checks) is not. With missingOK, a
// missing directory ends the walk without an error: the caller makes it,
// and what follows, and walks again. The error wraps ErrUnsafePath and
// names the directory or link and its owner. Unix says nothing of where an
// open file is: checked is "".
func checkAncestors(path string, missingOK bool) (checked string, err error) {
	return "", walkAncestors(path, missingOK)
}

func walkAncestors(path string, missingOK bool) error {
	full := path
	if !strings.HasPrefix(path, "/") {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		full = wd + "/" + path
	}
	// Not filepath.Clean: "link/.." is the parent of the link's target,
	// not the directory the link is in.
	euid := os.Geteuid()
	names := strings.Split(full, "/")
	names = names[:len(names)-1]
	cur := "/"
	var st unix.Stat_t
	if err := lstatAncestor(cur, &st); err != nil {
		return err
	}
	if err := checkLockDir(&st, cur, euid); err != nil {
		return err
	}
	links := 0
	for len(names) > 0 {
		name := names[0]
		names = names[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur) // cur holds no link and no "..": its parent is its prefix
			continue
		}
		next := filepath.Join(cur, name)
		if err := lstatAncestor(next, &st); err != nil {
			if missingOK && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		switch uint32(st.Mode) & unix.S_IFMT {
		case unix.S_IFDIR:
			if err := checkLockDir(&st, next, euid); err != nil {
				return err
			}
			cur = next
		case unix.S_IFLNK:
			// Its directory was checked, so only its owner or a trusted
			// user could have put it there; in a sticky directory anyone
			// could, and it would lead wherever they like.
			if err := trustedOwnerAs(fileOwner(st.Uid), euid, "symbolic link "+next); err != nil {
				return err
			}
			if links++; links > maxSymlinks {
				return &fs.PathError{Op: "lstat", Path: path, Err: unix.ELOOP}
			}
			target, err := os.Readlink(next)
			if err != nil {
				return err
			}
			if strings.HasPrefix(target, "/") {
				cur = "/"
			}
			names = append(strings.Split(target, "/"), names...)
		default:
			return &fs.PathError{Op: "lstat", Path: next, Err: unix.ENOTDIR}
		}
	}
	return nil
}

func lstatAncestor(path string, st *unix.Stat_t) error {
	if err := ignoringEINTR(func() error { return unix.Lstat(path, st) }); err != nil {
		return &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	return nil
}
