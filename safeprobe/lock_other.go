//go:build !windows && !darwin && !dragonfly && !freebsd && !linux && !netbsd && !openbsd

package safeprobe

import (
	"fmt"
	"io/fs"
	"os"
)

// File locks are not implemented on this OS: every lock operation fails
// with an error wrapping ErrUnsupported.

type fileKey struct{}

const staleReleaseWait = 0

func openLockFile(path string, write bool, mode os.FileMode) (lockFile, error) {
	return nil, fmt.Errorf("file locks: %w", ErrUnsupported)
}

func pathKey(path string) (fileKey, error) {
	return fileKey{}, fmt.Errorf("file locks: %w", ErrUnsupported)
}

func removeLockFile(f lockFile, path string) error {
	return fmt.Errorf("file locks: %w", ErrUnsupported)
}

func checkLockDir(dir string, fi fs.FileInfo) error { return nil }
