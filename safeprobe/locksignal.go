package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"
)

// ErrUnverified is wrapped by the error of SignalOwner for a holder whose
// record has no identity (a bare PID file): its PID may have been reused.
var ErrUnverified = errors.New("owner record has no identity to verify")

// ErrSelf is wrapped by the error of SignalOwner when the holder is the
// calling process.
var ErrSelf = errors.New("the lock's owner is this process")

// SignalOptions relaxes SignalOwnerWith's refusals. A nil *SignalOptions
// refuses everything it can.
type SignalOptions struct {
	// AllowUnverified signals the PID of a record without identity.
	AllowUnverified bool
	// AllowSelf signals the calling process if it is the holder.
	AllowSelf bool
	// Owner, if not nil, is the only process to signal: a holder whose
	// record names another process (one that took the lock after Owner
	// released it, say) is refused with ErrNotHeld.
	Owner *Identity
}

// SignalOwnerTimeout bounds SignalOwner and SignalOwnerWith, which are
// SignalOwnerContext with a context that ends this long after the call.
// What they read is bounded by what the holder has (its descriptors and
// threads, on Linux) and by a record that is being written, not by what
// other processes hold; this bound is for a machine so loaded that even
// that stalls.
const SignalOwnerTimeout = 5 * time.Second

// SignalOwner sends sig to the process holding the lock at path:
// SignalOwnerWith with the default refusals.
func SignalOwner(path string, sig os.Signal) error {
	return SignalOwnerWith(path, sig, nil)
}

// SignalOwnerWith is SignalOwnerContext with a context that ends after
// SignalOwnerTimeout.
func SignalOwnerWith(path string, sig os.Signal, opts *SignalOptions) error {
	ctx, cancel := context.WithTimeout(context.Background(), SignalOwnerTimeout)
	defer cancel()
	return SignalOwnerContext(ctx, path, sig, opts)
}

// SignalOwnerContext sends sig to the process holding the lock at path,
// after checking that it is that process, giving up when ctx ends (the
// error then wraps ctx's error, and nothing is signalled). It refuses (with a *LockError) a lock
// file that another user could have written or moved there (ErrUnsafePath:
// on Unix, one owned by anyone but the caller's user or root, or below a
// directory another user may change, as TryAcquire refuses), a record
// naming a process that runs as another user than the file's owner, and
// so could not have written it (ErrUnsafePath), and it refuses when the
// process the record names does not hold the lock (ErrNotHeld: no one
// holds it, or someone else does), the record is corrupt
// (ErrCorruptRecord), has no identity (ErrUnverified, unless
// AllowUnverified), names the caller (ErrSelf, unless AllowSelf), or names
// a process that has exited or whose PID now belongs to another process (a
// *ProcessError with State NotFound or Reused, matching os.ErrProcessDone).
// AllowUnverified still requires a running process with exactly that PID:
// a zombie, a Linux thread ID or, on Windows, an alias pid+1..pid+3 (which
// os.FindProcess opens as process pid) is refused.
// A record's PID is never 0 or negative: parseRecord refuses those.
//
// Which process holds the lock: on Linux, the one whose own descriptor
// holds it (/proc/<pid>/fdinfo), so that a process that handed the lock to
// a child, or another user who may read the file and locked it, does not
// make the record's process a target. Where the OS does not say (macOS,
// the BSDs, Windows, or another user's process that a caller other than
// root may not look into), only a file no other user may open is believed
// held by its record's process: ErrUnsafePath for one that group or others
// may read (LockOptions.Mode 0644, say).
//
// The process is opened (a pidfd on Linux, a process handle on Windows)
// before its identity is checked, and signalled through that handle, so
// the signal reaches the verified process or, if it has exited meanwhile,
// no one; when the handle cannot be had (a full descriptor table), nothing
// is signalled. Elsewhere, and on Linux kernels without pidfds, it is
// kill(2) after the check, with the small window that implies. On Windows
// the only signal is os.Kill.
func SignalOwnerContext(ctx context.Context, path string, sig os.Signal, opts *SignalOptions) error {
	var o SignalOptions
	if opts != nil {
		o = *opts
	}
	fail := func(pid int, err error) error {
		return &LockError{Op: "signal", Path: path, PID: pid, Err: err}
	}
	if runtime.GOOS == "windows" && sig != os.Kill && !isOwnerAction(sig) {
		return fail(0, fmt.Errorf("signal %v: %w (only os.Kill on windows)", sig, ErrUnsupported))
	}
	p, err := checkedPath(path, lockFilePath)
	if err != nil {
		return fail(0, err)
	}
	var (
		owner      fileOwner
		key        fileKey
		othersOpen error
	)
	st, err := inspect(ctx, p, inspectQuery{op: "signal",
		check: func(f lockFile) error {
			owner, key, othersOpen = f.owner(), f.key(), f.othersMayOpen()
			return trustedOwner(owner, "file")
		}})
	switch {
	case err != nil:
		return err
	case st.Corrupt:
		return fail(0, fmt.Errorf("%w: %s", ErrCorruptRecord, st.Reason))
	case !st.Held:
		return fail(0, fmt.Errorf("%w: the file names pid %d, which no longer holds it", ErrNotHeld, st.Record.PID))
	case st.OtherPIDNamespace:
		return fail(st.Record.PID, fmt.Errorf("%w: %s: pid %d here is another process, or none; nothing is signalled",
			ErrOtherPIDNamespace, st.Reason, st.Record.PID))
	}
	rec := st.Record
	if err := ValidatePID(rec.PID); err != nil {
		return fail(0, err)
	}
	if rec.PID == os.Getpid() && !o.AllowSelf {
		return fail(rec.PID, ErrSelf)
	}
	if !rec.HasIdentity && !o.AllowUnverified {
		return fail(rec.PID, ErrUnverified)
	}
	if o.Owner != nil && !(rec.HasIdentity && rec.Identity.Same(*o.Owner)) {
		return fail(rec.PID, fmt.Errorf("%w by %v: held by pid %d now", ErrNotHeld, *o.Owner, rec.PID))
	}
	err = signalVerified(rec.PID, sig, func() error {
		// Verified or not, the record's PID must name a running process:
		// not a zombie, not a thread ID, which kill(2) signals as its
		// process, and not a Windows alias pid+1..pid+3; Probe refuses
		// all three.
		switch s, err := recordState(rec); s {
		case Running:
		case Unknown:
			return err
		default:
			return &ProcessError{PID: rec.PID, State: s}
		}
		if err := ownerRuns(rec.PID, owner); err != nil {
			return err
		}
		if err := holds(ctx, rec.PID, key, othersOpen); err != nil {
			return err
		}
		return ctx.Err() // nothing is signalled once ctx has ended
	})
	if err != nil {
		return fail(rec.PID, err)
	}
	return nil
}

// holds refuses a process that does not hold the lock on the file k names:
// where the OS says which process holds it (pidHoldsLock), that process
// must be pid; where it does not, no one but this process's user and root
// may open the file (othersOpen, from othersMayOpen, is nil), so that the
// lock is held by a process that could have written the record.
func holds(ctx context.Context, pid int, k fileKey, othersOpen error) error {
	held, known, err := pidHoldsLock(ctx, pid, k)
	switch {
	case err != nil:
		return err
	case known && !held:
		return fmt.Errorf("%w: pid %d does not hold it; another process does", ErrNotHeld, pid)
	case !known && othersOpen != nil:
		return fmt.Errorf("%w; the OS does not say which process holds it", othersOpen)
	}
	return nil
}
