package safeprobe

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// lockTableHeld answers "does an open file hold a flock on fd's file?"
// from /proc/locks, which lists every flock by holder and by
// device:inode, shared (READ) or exclusive (WRITE): either stops
// TryAcquire, so either counts. Reading it takes no lock, so it cannot make
// a concurrent TryAcquire fail, as the probe can. The table is read once,
// a page per read(2), with ctx checked between reads: the kernel walks the
// table from its start for each page, so a table of a million locks takes
// most of a minute. known is false where the table may be incomplete or
// the file cannot be named in it; the caller then falls back to the probe:
//
//   - outside the initial PID namespace, /proc/locks omits locks whose
//     holder's PID is not visible there (a holder in another container, or
//     one that took the lock and exited, leaving it to a child);
//   - the device is the file system's (the superblock's), which stat's
//     st_dev is not on btrfs subvolumes and overlayfs: it is read from
//     /proc/self/mountinfo for the file's mount (statx STATX_MNT_ID,
//     Linux 5.8);
//   - on network, cluster and FUSE file systems a flock may be kept by the
//     server, or turned into a POSIX lock (NFS), which the table does not
//     show as a flock.
func lockTableHeld(ctx context.Context, fd int) (held, known bool, err error) {
	if !lockTableComplete() {
		return false, false, nil
	}
	var sfs unix.Statfs_t
	if err := ignoringEINTR(func() error { return unix.Fstatfs(fd, &sfs) }); err != nil || remoteLocks(uint32(sfs.Type)) {
		return false, false, nil
	}
	var stx unix.Statx_t
	if err := ignoringEINTR(func() error {
		return unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_INO|unix.STATX_MNT_ID, &stx)
	}); err != nil || stx.Mask&unix.STATX_MNT_ID == 0 {
		return false, false, nil
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return false, false, nil
	}
	major, minor, ok := mountDevice(mounts, stx.Mnt_id)
	if !ok {
		return false, false, nil
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return false, false, nil
	}
	defer f.Close()
	sc := bufio.NewScanner(ctxReader{ctx, f})
	for sc.Scan() {
		if flockLine(sc.Bytes(), major, minor, stx.Ino) {
			held = true
			break
		}
	}
	if err := sc.Err(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return false, false, ctxErr
		}
		return false, false, nil
	}
	return held, true, nil
}

// ctxReader reads r until ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}

// remoteLocks reports whether the file system of type magic (statfs
// f_type) may keep flocks elsewhere than this kernel's lock table.
func remoteLocks(magic uint32) bool {
	switch magic {
	case unix.NFS_SUPER_MAGIC, unix.SMB_SUPER_MAGIC, unix.SMB2_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC,
		unix.CEPH_SUPER_MAGIC, unix.FUSE_SUPER_MAGIC, unix.V9FS_MAGIC, unix.AFS_SUPER_MAGIC,
		unix.AFS_FS_MAGIC, unix.CODA_SUPER_MAGIC, unix.OCFS2_SUPER_MAGIC,
		0x01161970: // GFS2_MAGIC
		return true
	}
	return false
}

// lockTableComplete reports whether /proc/locks shows every lock: in the
// initial PID namespace (whose /proc/self/ns/pid inode is fixed,
// PROC_PID_INIT_INO) with a /proc of this namespace.
var lockTableComplete = sync.OnceValue(func() bool {
	ns, err := os.Readlink("/proc/self/ns/pid")
	return err == nil && ns == "pid:[4026531836]" && procIsOurs()
})

// mountDevice returns the device (major:minor, the third field) of mount
// id in the contents of /proc/self/mountinfo.
func mountDevice(mountinfo []byte, id uint64) (major, minor uint32, ok bool) {
	want := strconv.FormatUint(id, 10)
	for _, line := range bytes.Split(mountinfo, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) < 3 || string(f[0]) != want {
			continue
		}
		maj, min, found := bytes.Cut(f[2], []byte(":"))
		a, err1 := strconv.ParseUint(string(maj), 10, 32)
		b, err2 := strconv.ParseUint(string(min), 10, 32)
		if !found || err1 != nil || err2 != nil {
			return 0, 0, false
		}
		return uint32(a), uint32(b), true
	}
	return 0, 0, false
}

// flockHeld reports whether the contents of /proc/locks list a flock on
// the file with device major:minor and inode ino (see flockLine).
func flockHeld(locks []byte, major, minor uint32, ino uint64) bool {
	for _, line := range bytes.Split(locks, []byte("\n")) {
		if flockLine(line, major, minor, ino) {
			return true
		}
	}
	return false
}

// flockLine reports whether a line of /proc/locks is a flock, shared or
// exclusive but not a waiter for one ("->"), on the file with device
// major:minor (in hex there) and inode ino:
//
//	1: FLOCK  ADVISORY  WRITE 8153 fe:00:9977957 0 EOF
func flockLine(line []byte, major, minor uint32, ino uint64) bool {
	f := bytes.Fields(line)
	if len(f) < 6 || string(f[1]) != "FLOCK" || (string(f[3]) != "WRITE" && string(f[3]) != "READ") {
		return false // a waiter's line has "->" in f[1]
	}
	parts := bytes.Split(f[5], []byte(":"))
	if len(parts) != 3 {
		return false
	}
	maj, err1 := strconv.ParseUint(string(parts[0]), 16, 32)
	min, err2 := strconv.ParseUint(string(parts[1]), 16, 32)
	i, err3 := strconv.ParseUint(string(parts[2]), 10, 64)
	return err1 == nil && err2 == nil && err3 == nil && uint32(maj) == major && uint32(min) == minor && i == ino
}

// pidHoldsLock reports whether process pid holds the exclusive lock on
// the file k names through a descriptor of its own: a process named in a
// record but not holding the lock (it handed its descriptor to a child and
// then exec'd, which closed its own, or another user who may read the file
// locked it) is not its holder. It looks through /proc/<pid>/fd for a
// descriptor open on the file whose /proc/<pid>/fdinfo lists an exclusive
// flock ("lock:" lines name the locks of that descriptor's open file
// only). known is false where /proc is not this PID namespace's, or pid's
// descriptors are not ours to read (another user's process, for a caller
// that is not root).
//
//	no process: false, known
//	EPERM:      unknown to a caller other than root, who may not read another user's descriptors
//	zombie:     false, known to root (no descriptors); unknown to others: its fd is root's
//	thread ID:  as its process, whose descriptors a thread shares: callers probe first
func pidHoldsLock(ctx context.Context, pid int, k fileKey) (held, known bool, err error) {
	if !procIsOurs() {
		return false, false, nil
	}
	dir := procPath(pid, "fd")
	d, err := os.Open(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, true, nil // gone
	case err != nil:
		return false, false, nil
	}
	defer d.Close()
	for {
		names, err := d.Readdirnames(256)
		for _, name := range names {
			var st unix.Stat_t
			if unix.Stat(dir+"/"+name, &st) != nil || (fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}) != k {
				continue
			}
			if fdHoldsFlock(procPath(pid, "fdinfo/"+name)) {
				return true, true, nil
			}
		}
		if cerr := ctx.Err(); cerr != nil {
			return false, false, cerr
		}
		switch {
		case err == io.EOF:
			return false, true, nil
		case errors.Is(err, fs.ErrPermission):
			return false, false, nil
		case err != nil:
			return false, true, nil // the process went while listed
		}
	}
}

// fdHoldsFlock reports whether the fdinfo file lists an exclusive flock
// held through its descriptor:
//
//	lock:	1: FLOCK  ADVISORY  WRITE 8153 fe:00:9977957 0 EOF
func fdHoldsFlock(fdinfo string) bool {
	b, err := os.ReadFile(fdinfo)
	if err != nil {
		return false
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("lock:"))
		if f := bytes.Fields(rest); ok && len(f) >= 4 && string(f[1]) == "FLOCK" && string(f[3]) == "WRITE" {
			return true
		}
	}
	return false
}

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
			// AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc/self/fd does not.
			err := unix.Linkat(fd, "", dirfd, name, unix.AT_EMPTY_PATH)
			if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EPERM) {
				err = unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), dirfd, name, unix.AT_SYMLINK_FOLLOW)
			}
			return err
		})
		if err == nil {
			return fd
		}
	}
	unix.Close(fd)
	return -1
}
