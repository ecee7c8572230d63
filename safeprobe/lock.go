package safeprobe

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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

// LockOptions tunes TryAcquire and Acquire. A nil *LockOptions means the
// defaults.
type LockOptions struct {
	// Mode is the permission of a lock file TryAcquire creates (before the
	// umask); 0600 if zero. A Mode that lets group or others write is
	// refused (ErrUnsafePath), as is an existing lock file with such a
	// mode: whoever may write the record may name any process. On Windows the file gets a DACL of its own
	// rather than its directory's inherited one: full control for its
	// creator's user, SYSTEM and Administrators, and read for Everyone if
	// Mode has the others' read bit (0o004).
	Mode os.FileMode
	// NoSync skips the fsync after the owner record is written. The lock
	// itself does not need it; without it a power loss can leave an empty
	// or partial record, which the next holder overwrites anyway.
	NoSync bool
	// Program is recorded as the holder's program name; the base name of
	// os.Args[0] if empty.
	Program string
	// MinBackoff and MaxBackoff bound Acquire's waits between attempts:
	// the wait starts at MinBackoff (1 ms if zero) and doubles up to
	// MaxBackoff (100 ms if zero); each is jittered to between half and
	// all of it, so waiters do not retry in step. MinBackoff is at least
	// 100 µs and MaxBackoff at least 1 ms, so that a tiny value does not
	// spin a core.
	MinBackoff, MaxBackoff time.Duration
}

// programName is the base name of this program, for records.
func programName() string {
	if len(os.Args) == 0 {
		return ""
	}
	return filepath.Base(os.Args[0])
}

func (o *LockOptions) withDefaults() LockOptions {
	var r LockOptions
	if o != nil {
		r = *o
	}
	if r.Mode == 0 {
		r.Mode = 0o600
	}
	if r.Program == "" {
		r.Program = programName()
	}
	switch {
	case r.MinBackoff <= 0:
		r.MinBackoff = time.Millisecond
	case r.MinBackoff < minBackoff:
		r.MinBackoff = minBackoff
	}
	switch {
	case r.MaxBackoff <= 0:
		r.MaxBackoff = 100 * time.Millisecond
	case r.MaxBackoff < maxBackoffFloor:
		r.MaxBackoff = maxBackoffFloor
	}
	r.MaxBackoff = max(r.MaxBackoff, r.MinBackoff)
	return r
}

// lockFile is an open lock file as each lock_<os>.go provides it. Each also
// defines fileKey (what names a file), staleReleaseWait, openLockFileAt,
// pathKey, removeLockFile, openLockDir and dirLinked (lockowner_windows.go
// holds Windows' owner checks).
type lockFile interface {
	io.ReaderAt
	io.WriterAt
	Truncate(size int64) error
	Sync() error
	Close() error
	// tryLock takes the exclusive lock without waiting; errWouldBlock
	// means another open file holds a lock on it.
	tryLock() error
	// probeHeld reports whether an open file holds the exclusive lock:
	// from the OS's table of lock holders where it has one, otherwise by
	// taking a shared lock without waiting and dropping it at once.
	probeHeld() (bool, error)
	unlock() error
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
	path string   // the whole path: for errors, and the file where dir is nil
	dir  *os.File // the LockDir's directory, or nil
	name string   // the file's name in dir
}

func pathOf(path string) lockPath { return lockPath{path: path} }

// withSuffix names the file beside p whose name is p's plus suffix.
func (p lockPath) withSuffix(suffix string) lockPath {
	return lockPath{path: p.path + suffix, dir: p.dir, name: p.name + suffix}
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
// TryAcquire opens the file (creating it, refusing symlinks, directories,
// FIFOs and devices, hard-linked files and files another user owns), takes
// an exclusive lock without waiting (flock(LOCK_EX|LOCK_NB) on Unix,
// LockFileEx on one byte at offset 1<<20 on Windows, so the record stays
// readable), checks that the locked file is still the one at the path (it
// may have been replaced or unlinked meanwhile: then it starts over, or, if
// the lock was held when first tried and its holder released and removed
// the file while it waited, it reports ErrLocked and leaves the next turn
// to Acquire's backoff), and writes its owner record (truncate, write,
// fsync).
//
// Nothing has to clean up after a crash: the kernel drops the lock when the
// holder dies (SIGKILL, power loss), so the next TryAcquire simply takes it
// and rewrites the record; a record from a dead process, an earlier boot or
// a corrupt one is overwritten. The lock file is opened close-on-exec (not
// inheritable on Windows), so a child the holder starts never keeps the lock.
//
// Release removes the file while still holding the lock, and only if the
// path still names the locked file, then unlocks. A waiter that had the old
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

// testHookOpened, if set, runs in TryAcquire between opening the lock file
// and locking it, and may wrap the open file to inject faults (a full disk,
// a failing fsync).
var testHookOpened func(lockFile) lockFile

// TryAcquire takes the lock at path without waiting. If another open file
// holds it, the error wraps ErrLocked and names the holder's PID when its
// record is readable. A stale file (its holder died, or a record from an
// earlier boot) or a corrupt record does not stop it: only the kernel lock
// decides. On Windows, where a dead process's locks are released some time
// after it exits, TryAcquire keeps trying for up to staleReleaseWait (2 s)
// when the lock is held but its record names a process that is gone; that
// wait is spent once per file and record in a process: later calls that
// find the lock still held under the same record report ErrLocked at once.
func TryAcquire(path string, opts *LockOptions) (*Lock, error) {
	return tryAcquire(pathOf(path), opts)
}

func tryAcquire(p lockPath, opts *LockOptions) (*Lock, error) {
	path := p.path
	o := opts.withDefaults()
	fail := func(pid int, err error) (*Lock, error) {
		return nil, &LockError{Op: "acquire", Path: path, PID: pid, Err: err}
	}
	if o.Mode&0o022 != 0 {
		// Whoever may write the record may name any process in it.
		return fail(0, fmt.Errorf("%w: LockOptions.Mode %#o lets group or others write the owner record", ErrUnsafePath, o.Mode))
	}
	var lastErr error
	// Only starting over on a changed file counts against maxReopen; the
	// wait for a dead holder's lock is bounded by staleWaitEnd.
	for reopens := 0; reopens < maxReopen; {
		f, err := openLockFileAt(p, true, o.Mode)
		if errors.Is(err, fs.ErrNotExist) && dirExists(p) {
			// open(O_CREAT) raced a holder's unlink: try again.
			lastErr = err
			reopens++
			continue
		}
		if err != nil {
			return fail(0, err)
		}
		if testHookOpened != nil {
			f = testHookOpened(f)
		}
		k := f.key()
		if heldHere(k) {
			f.Close()
			return fail(os.Getpid(), fmt.Errorf("%w by this process", ErrLocked))
		}
		contended, err := lockWithGrace(f)
		if errors.Is(err, errWouldBlock) {
			rec, perr := parseRecord(readRecordBytes(f))
			f.Close()
			if staleReleaseWait > 0 && perr == nil && holderGone(rec) {
				// The holder is gone but its lock not yet released.
				if time.Now().Before(staleWaitEnd(k, rec)) {
					time.Sleep(10 * time.Millisecond)
					continue
				}
			}
			return fail(rec.PID, ErrLocked)
		}
		if err != nil {
			f.Close()
			return fail(0, err)
		}
		if pk, err := pathKey(p); err != nil || pk != k {
			// Replaced or unlinked since we opened it: closing drops the
			// lock on a file no one will look for.
			f.Close()
			if contended {
				// Its holder released and removed it while we waited,
				// and others take turns on the path: starting over
				// would chase them. It was held; Acquire backs off.
				return fail(0, fmt.Errorf("%w (released and removed while waiting)", ErrLocked))
			}
			lastErr = err
			reopens++
			continue
		}
		rec := newRecord(o.Program)
		if err := writeRecord(f, formatRecord(rec), !o.NoSync); err != nil {
			f.unlock()
			f.Close()
			return fail(0, fmt.Errorf("writing owner record: %w", err))
		}
		l := &Lock{loc: p, owner: rec, f: f}
		held.Lock()
		if held.locks == nil {
			held.locks = make(map[fileKey]*Lock)
		}
		held.locks[k] = l
		held.Unlock()
		removeOwnTakeover(p, f)
		return l, nil
	}
	return fail(0, fmt.Errorf("the file at the path kept changing while being locked (last: %v)", lastErr))
}

// lockWithGrace is tryLock, retried twice shortly to outlast an Inspect
// probe's momentary shared lock. contended reports that the lock was held
// at the first try.
func lockWithGrace(f lockFile) (contended bool, err error) {
	err = f.tryLock()
	contended = errors.Is(err, errWouldBlock)
	for _, d := range []time.Duration{probeGrace1, probeGrace2} {
		if !errors.Is(err, errWouldBlock) {
			break
		}
		time.Sleep(d)
		err = f.tryLock()
	}
	return contended, err
}

// dirExists reports whether the directory of p exists.
func dirExists(p lockPath) bool {
	if p.dir != nil {
		return dirLinked(p.dir)
	}
	fi, err := os.Stat(filepath.Dir(p.path))
	return err == nil && fi.IsDir()
}

// staleWaits remembers, per lock file and record, when TryAcquire first
// found the lock held under a record whose holder is gone, so that the wait
// for Windows to release a dead holder's lock is spent once: a lock still
// held staleReleaseWait later is held by someone else, and every later
// call reports it at once rather than stalling again. An entry not met for
// staleForget is dropped.
var staleWaits struct {
	sync.Mutex
	seen map[staleKey]staleSeen
}

type staleKey struct {
	file  fileKey
	pid   int
	start uint64
}

type staleSeen struct{ first, last time.Time }

const staleForget = time.Minute

// staleWaitEnd is when TryAcquire stops waiting for the lock on the file k
// names, held under rec, whose holder is gone.
func staleWaitEnd(k fileKey, rec Record) time.Time {
	now := time.Now()
	staleWaits.Lock()
	defer staleWaits.Unlock()
	for key, seen := range staleWaits.seen {
		if now.Sub(seen.last) > staleForget {
			delete(staleWaits.seen, key)
		}
	}
	if staleWaits.seen == nil {
		staleWaits.seen = make(map[staleKey]staleSeen)
	}
	key := staleKey{file: k, pid: rec.PID, start: rec.Identity.StartTime}
	seen, ok := staleWaits.seen[key]
	if !ok {
		seen.first = now
	}
	seen.last = now
	staleWaits.seen[key] = seen
	return seen.first.Add(staleReleaseWait)
}

// holderGone reports whether the process a record names has certainly
// exited.
func holderGone(r Record) bool {
	s, _ := recordState(r)
	return s == NotFound || s == Reused
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
	k := f.key()
	var errs []error
	if pk, err := pathKey(l.loc); err == nil && pk == k {
		if err := removeLockFile(f, l.loc); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("removing: %w", err))
		}
	}
	// Forget the file before closing it: once closed, its inode number
	// can name a new file at the path that another goroutine then locks.
	held.Lock()
	if held.locks[k] == l {
		delete(held.locks, k)
	}
	held.Unlock()
	if err := f.unlock(); err != nil {
		errs = append(errs, fmt.Errorf("unlocking: %w", err))
	}
	if err := f.Close(); err != nil {
		errs = append(errs, fmt.Errorf("closing: %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		return &LockError{Op: "release", Path: l.loc.path, Err: err}
	}
	return nil
}
