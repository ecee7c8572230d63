package safeprobe

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// lockTableFree reports that /proc/locks, which lists every flock by
// holder and by device:inode, shared (READ) or exclusive (WRITE), lists
// none on fd's file: the lock is free, and the probe, which takes the lock
// for a moment and so may make a concurrent TryAcquire fail, need not be
// asked. Anything else is false, and the caller probes:
//
//   - a line with the file's numbers: the table names a file by its file
//     system's device and inode number, which another file shares on btrfs
//     (subvolumes share the device, and an unprivileged user may make one
//     and a file in it with the same inode number), so the numbers alone
//     never make a lock held;
//   - a table larger than lockTableBudget: the kernel walks the table from
//     its start for each page it hands out, so reading it whole takes time
//     that grows with the square of what everyone holds (another user's
//     200,000 flocks make it a minute), which no holder check may cost;
//   - a table that may be incomplete: outside the initial PID namespace,
//     /proc/locks omits locks whose holder's PID is not visible there (a
//     holder in another container, or one that took the lock and exited,
//     leaving it to a child);
//   - a file that cannot be named in it: the device is the file system's
//     (the superblock's), which stat's st_dev is not on btrfs subvolumes
//     and overlayfs, read from /proc/self/mountinfo for the file's mount
//     (statx STATX_MNT_ID, Linux 5.8);
//   - network, cluster and FUSE file systems, where a flock may be kept by
//     the server, or turned into a POSIX lock (NFS), which the table does
//     not show as a flock.
//
// The table is read a page at a time, with ctx checked between reads.
func lockTableFree(ctx context.Context, fd int) (free bool, err error) {
	if !lockTableComplete() {
		return false, nil
	}
	var sfs unix.Statfs_t
	if err := ignoringEINTR(func() error { return unix.Fstatfs(fd, &sfs) }); err != nil || remoteLocks(uint32(sfs.Type)) {
		return false, nil
	}
	var stx unix.Statx_t
	if err := ignoringEINTR(func() error {
		return unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_INO|unix.STATX_MNT_ID, &stx)
	}); err != nil || stx.Mask&unix.STATX_MNT_ID == 0 {
		return false, nil
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return false, nil
	}
	major, minor, ok := mountDevice(mounts, stx.Mnt_id)
	if !ok {
		return false, nil
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return false, nil
	}
	defer f.Close()
	r := &io.LimitedReader{R: ctxReader{ctx, f}, N: lockTableBudget + 1}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if flockLine(sc.Bytes(), major, minor, stx.Ino) {
			return false, nil
		}
	}
	if err := sc.Err(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return false, ctxErr
		}
		return false, nil
	}
	return r.N > 0, nil // read to its end within the budget
}

// lockTableBudget is how much of /proc/locks lockTableFree reads, in
// bytes: some 1,100 locks, hundreds of times what a machine usually holds,
// read in about a millisecond however many more there are (the first 64
// pages of a table of 200,000 took 14 ms, the first 16 about 1 ms).
const lockTableBudget = 64 << 10

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
