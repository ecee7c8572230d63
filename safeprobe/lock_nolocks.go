//go:build !darwin && !dragonfly && !freebsd && !linux && !netbsd && !openbsd && !windows

package safeprobe

import (
	"context"
	"fmt"
	"os"
)

// File locks are not implemented on this OS: every lock operation fails
// with an error wrapping ErrUnsupported.

type fileKey struct{}

type fileOwner struct{}

func trustedOwner(fileOwner, string) error { return errNoLocks }

// ownerRuns: there is no lock file to own.
//
//	no process, EPERM, zombie, thread ID: errNoLocks
func ownerRuns(int, fileOwner) error { return errNoLocks }

const staleReleaseWait = 0

const closeUnlocks = false

func openLockFileAt(p lockPath, write bool, mode os.FileMode) (lockFile, error) {
	return nil, errNoLocks
}

func pathKey(p lockPath) (fileKey, error) {
	return fileKey{}, errNoLocks
}

func removeLockFile(f lockFile, p lockPath) error { return errNoLocks }

func removeName(p lockPath) error        { return errNoLocks }
func renameName(from, to lockPath) error { return errNoLocks }
func linkName(from, to lockPath) error   { return errNoLocks }

func openLockDir(dir string) (*os.File, error) { return nil, nil }

// pidHoldsLock: there is no lock to hold.
//
//	no process, EPERM, zombie, thread ID: errNoLocks
func pidHoldsLock(context.Context, int, fileKey) (held, known bool, err error) {
	return false, false, errNoLocks
}

func createMarker(name string) (*os.File, error) { return nil, errNoLocks }

func makeLockDir(dir string) error { return os.MkdirAll(dir, 0o700) }

func checkAncestors(path string, missingOK bool) (string, error) { return "", nil }

func dirLinked(*os.File) bool { return true }

var errNoLocks = fmt.Errorf("file locks: %w", ErrUnsupported)
