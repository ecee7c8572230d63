package safeprobe

import (
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// createLocked creates p's file already locked, so that no one who may
// open it can lock it between its creation and the holder's flock: an
// unnamed file (O_TMPFILE) in p's directory, locked, then linked at p's
// name, which fails if the name is taken meanwhile. It returns the
// descriptor, or -1 where that cannot be done (a file system without
// O_TMPFILE, such as NFS or overlayfs before Linux 6.6; the name taken;
// no /proc to link through), and the caller then creates by name.
func createLocked(p lockPath, mode os.FileMode) int {
	var fd int
	err := p.dirAt(func(dirfd int, dir string) (err error) {
		fd, err = unix.Openat(dirfd, dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, uint32(mode.Perm()))
		return err
	})
	if err != nil {
		return -1
	}
	if ignoringEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) }) == nil {
		err = p.at(func(dirfd int, name string) error {
			// AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH (before Linux 6.10);
			// /proc/self/fd does not. Once refused, it is not asked again.
			if works, known := emptyPathLinks.get(); works || !known {
				err := unix.Linkat(fd, "", dirfd, name, unix.AT_EMPTY_PATH)
				if !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.EPERM) {
					emptyPathLinks.set(true)
					return err
				}
				emptyPathLinks.set(false)
			}
			return unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), dirfd, name, unix.AT_SYMLINK_FOLLOW)
		})
		if err == nil {
			return fd
		}
	}
	unix.Close(fd)
	return -1
}

// emptyPathLinks caches whether linkat(AT_EMPTY_PATH) links an O_TMPFILE
// file for this process.
var emptyPathLinks knownFact
