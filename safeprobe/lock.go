package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

var (
	// ErrLocked is wrapped by the error of TryAcquire (and of Acquire when
	// its context ends) for a lock another open file holds.
	ErrLocked = errors.New("locked")
	// ErrUnsafePath is wrapped by the error for a lock path that is not a
	// regular file this user owns with a single link, or a lock directory
	// others could tamper with. Such a file is left untouched.
	ErrUnsafePath = errors.New("unsafe lock path")
	// ErrNotHeld is wrapped by the error of Release on a released Lock, of
	// Check when the lock no longer guards its path, and of SignalOwner
	// when no process holds the lock.
	ErrNotHeld = errors.New("lock not held")
)

// errWouldBlock is what an OS layer's tryLock returns for a lock another
// open file holds.
var errWouldBlock = errors.New("lock would block")

// LockError is the error of every lock operation. It names the path, the
// operation and, for ErrLocked, the holder's PID when its record was
// readable. Use errors.Is with ErrLocked, ErrUnsafePath, ErrCorruptRecord,
// ErrNotHeld, fs.ErrNotExist, fs.ErrPermission or a context error.
type LockError struct {
	Op   string // "acquire", "release", "check", "inspect", "signal", "takeover", "lockdir"
	Path string
	PID  int // the holder's PID, when known and relevant; else 0
	Err  error
}

func (e *LockError) Error() string {
	msg := fmt.Sprintf("safeprobe: %s %s: %v", e.Op, e.Path, e.Err)
	if e.PID > 0 {
		msg += fmt.Sprintf(" (held by pid %d)", e.PID)
	}
	return msg
}

func (e *LockError) Unwrap() error { return e.Err }

// lockFile is an open lock file as each lock_<os>.go provides it. Each also
// defines fileKey (what names a file), staleReleaseWait, openLockFileAt,
// pathKey, removeLockFile, openLockDir, makeLockDir, dirLinked and
// pidHoldsLock (Windows' owner checks are in lockowner_windows.go).
type lockFile interface {
	io.ReaderAt
	io.WriterAt
	Truncate(size int64) error
	Sync() error
	Close() error
	// tryLock takes the exclusive lock without waiting; errWouldBlock
	// means another open file holds a lock on it.
	tryLock() error
	// probeHeld reports whether an open file holds a lock that stops
	// tryLock: where the OS says which process holds a lock, from process
	// pid's descriptors (the record's PID, or 0), then from its table of
	// locks when that shows the file free, and otherwise by taking the
	// lock, with grace retries, and dropping it; until ctx ends.
	probeHeld(ctx context.Context, pid int) (bool, error)
	// othersMayOpen refuses (ErrUnsafePath) a file that users other than
	// this process's and the administrator may open, and so lock.
	othersMayOpen() error
	unlock() error
	// fresh reports that this open made the file, already locked
	// (createLocked), so that no one else has had it: it is empty, and
	// its path names it.
	fresh() bool
	// key names the open file (device and inode, or volume and file ID).
	key() fileKey
	// owner is the file's owner, as read when it was opened. Each
	// lock_<os>.go defines fileOwner and what is asked of it:
	// trustedOwner(o, what) refuses (with ErrUnsafePath) an owner other
	// than this process's user or the administrator, whose files may say
	// what another user wrote; ownerRuns(pid, o) refuses a process that
	// does not run as o, and so could not have opened the lock file to
	// take the lock and write the record.
	owner() fileOwner
}

// lockPath names a lock file: by its path alone, or, in a LockDir, by its
// name in the directory held open since NewLockDir checked it, so that a
// directory swapped in at the path later is never used.
type lockPath struct {
	path string     // the whole path: for errors, and the file where dir is nil
	dir  *dirHandle // the LockDir's directory, or nil
	name string     // the file's name in dir
	// checked is the directory the walk above the path (checkedPath)
	// resolved it to, where the OS says where an open file is (Windows),
	// for the open to compare; "" where it was not walked or says nothing.
	checked string
}

func pathOf(path string) lockPath { return lockPath{path: path} }

// withSuffix names the file beside p whose name is p's plus suffix.
func (p lockPath) withSuffix(suffix string) lockPath {
	return lockPath{path: p.path + suffix, dir: p.dir, name: p.name + suffix, checked: p.checked}
}

// openLockFile is openLockFileAt of a path alone.
func openLockFile(path string, write bool, mode os.FileMode) (lockFile, error) {
	return openLockFileAt(pathOf(path), write, mode)
}

const (
	// maxReopen bounds how often TryAcquire starts over because the file
	// it locked is no longer the one at the path.
	maxReopen = 100
	// Where the OS lists no lock holders, Inspect's probe (probeHeld)
	// holds a shared lock for a moment. Rather than report a lock that
	// only a probe held, tryLock tries again after each of these pauses
	// before TryAcquire reports ErrLocked.
	probeGrace1 = 200 * time.Microsecond
	probeGrace2 = 2 * time.Millisecond
	// minBackoff and maxBackoffFloor are the least MinBackoff and
	// MaxBackoff: Acquire waits at least this long between attempts.
	minBackoff      = 100 * time.Microsecond
	maxBackoffFloor = time.Millisecond
)

// Lock is a held PID-file lock. The kernel's lock on an open file is the
// truth; the owner record inside the file (see Record) only names the
// holder.
//
// TryAcquire checks the directories above the file, opens it (creating it,
// already locked where the OS can; refusing symlinks, directories, FIFOs
// and devices, hard-linked files and files another user owns), takes an
// exclusive lock without waiting on that same descriptor
// (flock(LOCK_EX|LOCK_NB) on Unix, LockFileEx on one byte at offset 1<<20
// on Windows, so the record stays readable), checks that a file it did not
// make locked is still the one at the path (it may have been replaced or
// unlinked meanwhile: then it starts over, or, if the lock was held when
// first tried and its holder released and removed the file while it
// waited, it reports ErrLocked and leaves the next turn to Acquire's
// backoff; a file made locked had no name before it was locked, so no one
// can have moved it without holding the lock), and writes its owner record
// (truncate, write, fsync), or removes the file as Release does.
//
// Nothing has to clean up after a crash: the kernel drops the lock when the
// holder dies (SIGKILL, power loss), so the next TryAcquire simply takes it
// and rewrites the record; a record from a dead process, an earlier boot or
// a corrupt one is overwritten. The lock file is opened close-on-exec (not
// inheritable on Windows), so a child the holder starts never keeps the lock.
//
// Release removes the file while still holding the lock, and only if the
// path still names the locked file, then unlocks (on Unix, by closing its
// descriptor, the last of its open file). A waiter that had the old
// file open gets the lock on a file no longer at the path and notices, so
// two processes never both believe they hold the lock.
//
// Locks belong to open files, not processes: a second TryAcquire of the same
// path in the same process fails with ErrLocked like anyone else's. The lock
// is only as good as the file system's: local file systems are fine; NFS
// and other network file systems may emulate or ignore it.
//
// A Lock stays held until Release or the end of the process, even if it is
// no longer referenced. Its methods are safe for concurrent use.
type Lock struct {
	loc   lockPath
	owner Record

	mu sync.Mutex
	f  lockFile // nil once released
}

// held keeps every held Lock reachable, so a Lock the caller dropped is not
// finalized (which would close its file and silently drop the lock), and
// makes a second TryAcquire of a file this process holds fail without
// depending on the file system's lock semantics.
var held struct {
	sync.Mutex
	locks map[fileKey]*Lock
}

func heldHere(k fileKey) bool {
	held.Lock()
	defer held.Unlock()
	return held.locks[k] != nil
}

// Path returns the path the lock was acquired at.
func (l *Lock) Path() string { return l.loc.path }

// Owner returns the owner record the lock's holder wrote.
func (l *Lock) Owner() Record { return l.owner }

// Check reports whether the lock is still held and its path still names
// the locked file. Someone outside the protocol may remove or replace the
// file (an administrator, a /tmp cleaner); the lock then no longer excludes
// anyone, and a daemon that cares should stop. The error wraps ErrNotHeld.
func (l *Lock) Check() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return &LockError{Op: "check", Path: l.loc.path, Err: ErrNotHeld}
	}
	pk, err := pathKey(l.loc)
	if err != nil {
		return &LockError{Op: "check", Path: l.loc.path, Err: fmt.Errorf("%w: %w", ErrNotHeld, err)}
	}
	if pk != l.f.key() {
		return &LockError{Op: "check", Path: l.loc.path, Err: fmt.Errorf("%w: the path names another file now", ErrNotHeld)}
	}
	return nil
}

// Release removes the lock file if the path still names the locked file,
// then drops the lock and closes the file. The file is removed while the
// lock is held, so no one else can be holding it, and a file at the path
// that is not the locked one (someone replaced it) is left alone. The check
// and the removal are two system calls: a file renamed onto the path
// between them, by a process outside this protocol (which never renames
// onto a lock path), would be removed. Calling Release again does nothing
// and returns an error wrapping ErrNotHeld.
func (l *Lock) Release() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return &LockError{Op: "release", Path: l.loc.path, Err: ErrNotHeld}
	}
	f := l.f
	l.f = nil
	err := release(f, l.loc, l)
	if derr := l.loc.dir.drop(); derr != nil {
		err = errors.Join(err, fmt.Errorf("closing the lock directory: %w", derr))
	}
	if err != nil {
		return &LockError{Op: "release", Path: l.loc.path, Err: err}
	}
	return nil
}

// release removes the lock file p names if it is still f's file, then
// drops the lock on f and closes it, forgetting l (nil for a lock
// TryAcquire took but cannot keep): Release, and TryAcquire when it cannot
// write its record.
func release(f lockFile, p lockPath, l *Lock) error {
	k := f.key()
	var errs []error
	removed := false
	if pk, err := pathKey(p); err == nil && pk == k {
		err := removeLockFile(f, p)
		removed = err == nil
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("removing: %w", err))
		}
	}
	// Forget the file before closing it: once closed, its inode number
	// can name a new file at the path that another goroutine then locks.
	held.Lock()
	if l != nil && held.locks[k] == l {
		delete(held.locks, k)
	}
	held.Unlock()
	// Where closing drops the lock (flock), a removed file needs no
	// unlock first: no one can open it any more.
	if !removed || !closeUnlocks {
		if err := f.unlock(); err != nil {
			errs = append(errs, fmt.Errorf("unlocking: %w", err))
		}
	}
	if err := f.Close(); err != nil {
		errs = append(errs, fmt.Errorf("closing: %w", err))
	}
	return errors.Join(errs...)
}
