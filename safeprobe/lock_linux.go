package safeprobe

import (
	"bytes"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// lockTableHeld answers "does an open file hold an exclusive flock on fd's
// file?" from /proc/locks, which lists every flock by holder and by
// device:inode. Reading it takes no lock, so it cannot make a concurrent
// TryAcquire fail, as the shared-lock probe can. known is false where the
// table may be incomplete or the file cannot be named in it; the caller
// then falls back to the probe:
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
func lockTableHeld(fd int) (held, known bool) {
	if !lockTableComplete() {
		return false, false
	}
	var sfs unix.Statfs_t
	if err := ignoringEINTR(func() error { return unix.Fstatfs(fd, &sfs) }); err != nil || remoteLocks(uint32(sfs.Type)) {
		return false, false
	}
	var stx unix.Statx_t
	if err := ignoringEINTR(func() error {
		return unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_INO|unix.STATX_MNT_ID, &stx)
	}); err != nil || stx.Mask&unix.STATX_MNT_ID == 0 {
		return false, false
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return false, false
	}
	major, minor, ok := mountDevice(mounts, stx.Mnt_id)
	if !ok {
		return false, false
	}
	locks, err := os.ReadFile("/proc/locks")
	if err != nil {
		return false, false
	}
	return flockHeld(locks, major, minor, stx.Ino), true
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
	for line := range bytes.Lines(mountinfo) {
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

// flockHeld reports whether the contents of /proc/locks list an exclusive
// flock (not a waiter for one, "->") on the file with device major:minor
// (in hex there) and inode ino:
//
//	1: FLOCK  ADVISORY  WRITE 8153 fe:00:9977957 0 EOF
func flockHeld(locks []byte, major, minor uint32, ino uint64) bool {
	for line := range bytes.Lines(locks) {
		f := bytes.Fields(line)
		if len(f) < 6 || string(f[1]) != "FLOCK" || string(f[3]) != "WRITE" {
			continue // a waiter's line has "->" in f[1]
		}
		parts := bytes.Split(f[5], []byte(":"))
		if len(parts) != 3 {
			continue
		}
		maj, err1 := strconv.ParseUint(string(parts[0]), 16, 32)
		min, err2 := strconv.ParseUint(string(parts[1]), 16, 32)
		i, err3 := strconv.ParseUint(string(parts[2]), 10, 64)
		if err1 == nil && err2 == nil && err3 == nil && uint32(maj) == major && uint32(min) == minor && i == ino {
			return true
		}
	}
	return false
}
