package safeprobe

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// LockOptions tunes TryAcquire and Acquire. A nil *LockOptions means the
// defaults.
type LockOptions struct {
	// Mode is the permission of a lock file TryAcquire creates (before the
	// umask); 0600 if zero. A Mode that lets group or others write is
	// refused (ErrUnsafePath), as is an existing lock file with such a
	// mode: whoever may write the record may name any process. So is one
	// without the owner's read and write (0400, say: fs.ErrInvalid), which
	// no later holder but root could open once this one is gone, without
	// removing the file. On Windows the file gets a DACL of its own
	// rather than its directory's inherited one: full control for its
	// creator's user, SYSTEM and Administrators, and read for Everyone if
	// Mode has the others' read bit (0o004).
	Mode os.FileMode
	// NoSync skips the fsync after the owner record is written. The lock
	// itself does not need it; without it a power loss can leave an empty
	// or partial record, which the next holder overwrites anyway.
	NoSync bool
	// Program is recorded as the holder's program name; the base name of
	// os.Args[0] if empty. Either is cut to maxRecordedName bytes, so that
	// the record fits what readers read.
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

// checkMode refuses a Mode that lets group or others write the record
// (ErrUnsafePath), and one without the owner's read and write
// (fs.ErrInvalid): the file outlives a holder that dies, and the next
// TryAcquire must open it for writing.
func (o *LockOptions) checkMode() error {
	switch {
	case o.Mode&0o022 != 0:
		// Whoever may write the record may name any process in it.
		return fmt.Errorf("%w: LockOptions.Mode %#o lets group or others write the owner record", ErrUnsafePath, o.Mode)
	case o.Mode&0o600 != 0o600:
		return fmt.Errorf("%w: LockOptions.Mode %#o lacks the owner's read and write (0600): once this holder is gone, no one but root could open the file to take the lock", fs.ErrInvalid, o.Mode.Perm())
	}
	return nil
}
