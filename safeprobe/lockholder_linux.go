package safeprobe

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Which process holds a flock is read from that process's own descriptors,
// not from the machine's table of locks (/proc/locks), which another user
// can fill with hundreds of thousands of their own and which names a file
// only by its file system's device and inode number: on btrfs two
// subvolumes share the device, and another user who may make a subvolume
// can make a file with the same inode number. /proc/<pid>/fdinfo/<fd>
// lists the flocks held through that descriptor's open file, and the
// descriptor itself, stat'ed through /proc/<pid>/fd/<fd>, names the file
// by its own device and inode, as fstat of the lock file does. What this
// costs is what the process has (its descriptors and threads), whatever
// other users hold.

// pidHoldsLock reports whether process pid holds the exclusive lock on
// the file k names through a descriptor of its own: a process named in a
// record but not holding the lock (it handed its descriptor to a child and
// then exec'd, which closed its own, or another user who may read the file
// locked it) is not its holder. It looks through pid's descriptors for one
// open on the file whose fdinfo lists an exclusive flock ("lock:" lines
// name the locks of that descriptor's open file only); a thread group
// whose main thread has exited (a zombie leader, whose own descriptor
// table is gone) is looked at through its other threads. known is false
// where /proc is not this PID namespace's, or pid's descriptors are not
// ours to read (another user's process, for a caller that is not root).
//
//	no process: false, known
//	EPERM:      unknown to a caller other than root, who may not read another user's descriptors
//	zombie:     false, known to root (no descriptors); unknown to others: its fd is root's
//	thread ID:  as its process, whose descriptors a thread shares: callers probe first
func pidHoldsLock(ctx context.Context, pid int, k fileKey) (held, known bool, err error) {
	return pidLocks(ctx, pid, k, false)
}

// pidLocks is pidHoldsLock, counting a shared flock too where shared is
// set: Inspect asks whether anyone holds the lock, and a shared flock
// stops TryAcquire as an exclusive one does.
//
//	no process, EPERM, zombie, thread ID: as pidHoldsLock
func pidLocks(ctx context.Context, pid int, k fileKey, shared bool) (held, known bool, err error) {
	if !procIsOurs() {
		return false, false, nil
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	held, n, err := tableLocks(ctx, dir, k, shared)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, true, nil // gone
	case errors.Is(err, fs.ErrPermission):
		return false, false, nil
	case err != nil:
		return false, false, err
	case held:
		return true, true, nil
	}
	held, err = threadsLock(ctx, dir, pid, n, k, shared)
	return held, err == nil, err
}

// tableLocks reports whether a descriptor in the table /proc/<pid>/fd
// (dir is "/proc/<pid>/" or "/proc/<pid>/task/<tid>/") holds a flock on
// the file k names, and how many descriptors the table has. The error is
// the listing's (fs.ErrNotExist for a process or thread that is gone,
// fs.ErrPermission for one not ours to read) or ctx's.
func tableLocks(ctx context.Context, dir string, k fileKey, shared bool) (held bool, n int, err error) {
	d, err := os.Open(dir + "fd")
	if err != nil {
		return false, 0, err
	}
	defer d.Close()
	var buf [4096]byte
	for {
		names, rerr := d.Readdirnames(256)
		n += len(names)
		for _, name := range names {
			if fdLocks(dir, name, k, shared, buf[:]) {
				return true, n, nil
			}
		}
		if err := ctx.Err(); err != nil {
			return false, n, err
		}
		switch {
		case rerr == io.EOF:
			return false, n, nil
		case rerr != nil:
			// The process went while listed, or may no longer be read.
			if errors.Is(rerr, fs.ErrPermission) {
				return false, n, rerr
			}
			return false, n, fs.ErrNotExist
		}
	}
}

// fdLocks reports whether descriptor fd in the table under dir holds a
// flock on the file k names. Its fdinfo is read first (which asks nothing
// of the file system, so a descriptor on a hung network mount does not
// stall the search), and only a descriptor whose fdinfo shows a flock on
// an inode numbered as k's is stat'ed, for the device the inode is on.
func fdLocks(dir, fd string, k fileKey, shared bool, buf []byte) bool {
	n, err := sys.readFile(dir+"fdinfo/"+fd, buf)
	if err != nil || !fdinfoLocks(buf[:n], k.ino, shared) {
		return false
	}
	var st unix.Stat_t
	if unix.Stat(dir+"fd/"+fd, &st) != nil {
		return false
	}
	return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)} == k
}

// fdinfoLocks reports whether the contents of an fdinfo file name inode
// ino and list a flock held through the descriptor: exclusive, or, with
// shared, either.
//
//	pos:	0
//	flags:	0100001
//	mnt_id:	26
//	ino:	9996514
//	lock:	1: FLOCK  ADVISORY  WRITE 17486 fe:00:9996514 0 EOF
func fdinfoLocks(b []byte, ino uint64, shared bool) bool {
	sameIno, locked := false, false
	for rest := b; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if v, ok := bytes.CutPrefix(line, []byte("ino:")); ok {
			i, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 10, 64)
			sameIno = err == nil && i == ino
			continue
		}
		v, ok := bytes.CutPrefix(line, []byte("lock:"))
		if f := bytes.Fields(v); ok && len(f) >= 4 && string(f[1]) == "FLOCK" &&
			(string(f[3]) == "WRITE" || shared && string(f[3]) == "READ") {
			locked = true
		}
	}
	return sameIno && locked
}

// threadsLock looks for the lock in the descriptor tables of pid's other
// threads. A thread group whose main thread has exited (n, its table's
// size, is 0: a zombie leader's table is gone) holds its descriptors
// through the threads left, and a thread may have a table of its own
// (unshare(CLONE_FILES)). A thread's table is read only if kcmp
// (KCMP_FILES) says it is none of those already read, or, where none was,
// until one is: threads share one table unless they unshared it, so where
// kcmp cannot say (it needs ptrace access, and a kernel with kcmp), a
// thread is taken to share the table read, and a table a thread unshared
// goes unseen.
func threadsLock(ctx context.Context, dir string, pid, n int, k fileKey, shared bool) (bool, error) {
	tids, err := readDirNames(dir + "task")
	if err != nil || len(tids) < 2 {
		return false, nil // gone, or one thread, whose table was read
	}
	var read []int // threads (or the leader) whose tables were read
	if n > 0 {
		read = append(read, pid)
	}
	for _, name := range tids {
		tid, err := strconv.Atoi(name)
		if err != nil || tid == pid || !tableOfItsOwn(tid, read) {
			continue
		}
		held, m, err := tableLocks(ctx, dir+"task/"+name+"/", k, shared)
		switch {
		case held:
			return true, nil
		case ctx.Err() != nil:
			return false, ctx.Err()
		case err == nil && m > 0:
			read = append(read, tid)
		}
	}
	return false, nil
}

// kcmpFiles is KCMP_FILES: whether two tasks share a descriptor table.
const kcmpFiles = 2

// tableOfItsOwn reports whether task tid's descriptor table is none of
// read's, as kcmp says; with nothing read yet, it is.
func tableOfItsOwn(tid int, read []int) bool {
	for _, r := range read {
		same, _, errno := unix.Syscall6(unix.SYS_KCMP, uintptr(tid), uintptr(r), kcmpFiles, 0, 0, 0)
		if errno != 0 || same == 0 {
			return false
		}
	}
	return true
}

// readDirNames lists a directory's names.
func readDirNames(dir string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}
