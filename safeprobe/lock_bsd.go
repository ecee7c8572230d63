//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package safeprobe

import (
	"context"
	"os"

	"golang.org/x/sys/unix"
)

// lockTableFree: these systems have no table of flock holders that names
// the file (fcntl F_GETLK does not see flock locks on every one of them),
// so Inspect asks with the probe, and TryAcquire's grace retries
// (probeGrace1, probeGrace2) cover the moment it holds the lock.
func lockTableFree(ctx context.Context, fd int) (free bool, err error) {
	return false, nil
}

// pidHoldsLock: nothing here says which process holds a flock.
//
//	no process, EPERM, zombie, thread ID: unknown
func pidHoldsLock(ctx context.Context, pid int, k fileKey) (held, known bool, err error) {
	return false, false, nil
}

// pidLocks: nothing here says which process holds a flock.
//
//	no process, EPERM, zombie, thread ID: unknown
func pidLocks(ctx context.Context, pid int, k fileKey, shared bool) (held, known bool, err error) {
	return false, false, nil
}

// createLocked creates p's file already locked (O_EXLOCK takes the flock
// in the same open), so that no one who may open it can lock it between
// its creation and the holder's flock. It returns the descriptor, or -1
// where that cannot be done (the name is taken, or the file system has no
// locks), and the caller then opens by name.
func createLocked(p lockPath, mode os.FileMode) int {
	var fd int
	err := p.at(func(dirfd int, name string) (err error) {
		fd, err = unix.Openat(dirfd, name, unix.O_CREAT|unix.O_EXCL|unix.O_EXLOCK|unix.O_NONBLOCK|
			unix.O_RDWR|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NOCTTY, uint32(mode.Perm()))
		return err
	})
	if err != nil {
		return -1
	}
	return fd
}
