package safeprobe

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A lock path is checked in one place, checkedPath, by every entry point
// that writes under it (TryAcquire, Acquire, NewLockDir, RequestTakeover)
// or signals the process its record names (SignalOwner), before it makes
// any other system call: what one of them refuses, all of them refuse.

// pathKind is what a path handed to checkedPath names.
type pathKind int

const (
	// lockFilePath is a lock file's path; every directory above it must
	// exist.
	lockFilePath pathKind = iota
	// lockDirPath is NewLockDir's directory; every directory above it
	// must exist.
	lockDirPath
	// newLockDirPath is NewLockDir's directory before it makes what is
	// missing of it and of the directories above it: the walk stops at
	// the first missing one, and is done again, as lockDirPath, once they
	// are made.
	newLockDirPath
)

// checkedPath refuses, at once, a path that cannot name what kind says
// (validLockPath), then walks the directories above it as the OS resolves
// them and refuses any that another user could change (checkAncestors:
// the error wraps ErrUnsafePath and names the directory or link and its
// owner). It returns the path to open, with what the walk found.
func checkedPath(path string, kind pathKind) (lockPath, error) {
	if err := validLockPath(path, kind); err != nil {
		return lockPath{}, err
	}
	checked, err := checkAncestors(path, kind == newLockDirPath)
	if err != nil {
		return lockPath{}, err
	}
	return lockPath{path: path, checked: checked}, nil
}

// validLockPath refuses an empty path, and, for a lock file, a path whose
// form names a directory (a trailing separator, or "." or ".." as its last
// element): neither can ever be locked, and trying would only retry until
// it gave up. The error wraps fs.ErrInvalid.
func validLockPath(path string, kind pathKind) error {
	switch {
	case path == "":
		return fmt.Errorf("%w: empty path", fs.ErrInvalid)
	case kind != lockFilePath:
		return nil
	case os.IsPathSeparator(path[len(path)-1]):
		return fmt.Errorf("%w: the path ends in a separator, so names a directory, not a lock file", fs.ErrInvalid)
	}
	if base := filepath.Base(path); base == "." || base == ".." {
		return fmt.Errorf("%w: the path ends in %q, so names a directory, not a lock file", fs.ErrInvalid, base)
	}
	return nil
}
