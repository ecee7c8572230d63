package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// testHookOpened, if set, runs in TryAcquire between opening the lock file
// and locking it, and may wrap it to inject faults (a full disk, fsync).
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
	return tryAcquire(context.Background(), pathOf(path), opts)
}

// tryAcquire is TryAcquire of p; the wait for a dead holder's late
// release (Windows) ends with ctx.
func tryAcquire(ctx context.Context, p lockPath, opts *LockOptions) (*Lock, error) {
	path := p.path
	o := opts.withDefaults()
	fail := func(pid int, err error) (*Lock, error) {
		return nil, &LockError{Op: "acquire", Path: path, PID: pid, Err: err}
	}
	if err := o.checkMode(); err != nil {
		return fail(0, err)
	}
	if p.dir == nil {
		// A LockDir's directory was checked, and is used as it was then;
		// a path alone is walked at each attempt.
		var err error
		if p, err = checkedPath(path, lockFilePath); err != nil {
			return fail(0, err)
		}
	}
	// The identity is read before anything is made: a failure to read it
	// leaves nothing behind.
	rec, err := newRecord(o.Program)
	if err != nil {
		return fail(0, err)
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
				if time.Now().Before(staleWaitEnd(k, rec)) && sleepCtx(ctx, 10*time.Millisecond) == nil {
					continue
				}
			}
			return fail(rec.PID, ErrLocked)
		}
		if err != nil {
			f.Close()
			return fail(0, err)
		}
		// A file this open made was locked before it had a name, so no
		// one has removed or replaced it without holding the lock: only a
		// file that was there is looked for again at the path.
		if changed, err := lockedFileMoved(f, p, k); changed {
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
		rec.Acquired = time.Now().UTC()
		if err := writeRecord(f, formatOwnRecord(rec), !o.NoSync); err != nil {
			// Leave nothing a full disk could make stick: no lock, and no
			// file with a torn record, removed as Release removes it.
			if rerr := release(f, p, nil); rerr != nil {
				err = errors.Join(err, rerr)
			}
			return fail(0, fmt.Errorf("writing owner record: %w", err))
		}
		p.dir.keep()
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

// lockedFileMoved reports whether the path p no longer names f's file,
// whose key is k, now that f is locked (with the lstat's error, if it
// failed): a file f's open made is not looked for.
func lockedFileMoved(f lockFile, p lockPath, k fileKey) (bool, error) {
	if f.fresh() {
		return false, nil
	}
	pk, err := pathKey(p)
	return err != nil || pk != k, err
}

// lockWithGrace is tryLock, retried twice shortly to outlast an Inspect
// probe's momentary lock. contended reports that the lock was held at the
// first try.
func lockWithGrace(f lockFile) (contended bool, err error) {
	return withGrace(f.tryLock)
}

// withGrace is lock, retried after probeGrace1 and then probeGrace2 while
// it fails with errWouldBlock.
func withGrace(lock func() error) (contended bool, err error) {
	err = lock()
	contended = errors.Is(err, errWouldBlock)
	for _, d := range []time.Duration{probeGrace1, probeGrace2} {
		if !errors.Is(err, errWouldBlock) {
			break
		}
		time.Sleep(d)
		err = lock()
	}
	return contended, err
}

// dirExists reports whether the directory of p exists.
func dirExists(p lockPath) bool {
	if p.dir != nil {
		return dirLinked(p.dir.f)
	}
	fi, err := os.Stat(filepath.Dir(p.path))
	return err == nil && fi.IsDir()
}
