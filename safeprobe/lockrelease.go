package safeprobe

import (
	"errors"
	"fmt"
	"os"
)

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
