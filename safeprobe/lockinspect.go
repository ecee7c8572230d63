package safeprobe

import (
	"errors"
	"time"
)

// Status is what Inspect finds at a lock path.
type Status struct {
	Path string
	// Held reports whether some open file (possibly in this process)
	// holds the kernel lock.
	Held bool
	// Stale reports that the file exists but no one holds the lock: its
	// record names a holder that released without removing it, or died.
	Stale bool
	// Record is the owner record; zero when Corrupt.
	Record Record
	// Corrupt reports that the file's content is not an owner record;
	// Reason says why.
	Corrupt bool
	Reason  string
	// State is what the OS says of the process Record names:
	// Identity.Probe when the record has an identity (Reused for a PID
	// now owned by another process, or by any process of a later boot),
	// Probe of the PID for a bare PID file, Unknown when Corrupt.
	State State
}

// tornRetries bounds how often Inspect reads a record again while the
// lock is held; the pauses double from 1 ms (31 ms in all).
const tornRetries = 5

// Inspect reports who holds the lock at path, without taking it. The error
// wraps fs.ErrNotExist when there is no lock file.
//
// Whether the lock is held is asked by taking a shared lock on a separate
// open file without waiting, and dropping it at once: the kernel's own
// answer, unlike F_GETLK, which on Linux does not see flock locks. For that
// moment a TryAcquire elsewhere would fail; TryAcquire tries again after a
// short pause before it reports ErrLocked, so a probe does not make it fail.
//
// Torn reads: a new holder truncates the file and then writes its record,
// so a reader may see an empty file, a partial record, or its predecessor's
// record. The rule: while the lock is held, a record that is empty, lacks
// its final newline, does not parse, or names a process that is not running
// is read again, up to tornRetries times over about 30 ms, and the last
// reading is reported. A free lock's record is reported as read.
func Inspect(path string) (Status, error) {
	for range maxReopen {
		st, ok, err := inspectOnce(path)
		if err != nil {
			return Status{Path: path}, &LockError{Op: "inspect", Path: path, Err: err}
		}
		if ok {
			return st, nil
		}
	}
	return Status{Path: path}, &LockError{Op: "inspect", Path: path,
		Err: errors.New("the file at the path kept changing while being inspected")}
}

// inspectOnce inspects the file at path; ok is false if the file was
// replaced or removed meanwhile.
func inspectOnce(path string) (st Status, ok bool, err error) {
	f, err := openLockFile(path, false, 0)
	if err != nil {
		return st, false, err
	}
	defer f.Close()
	pause := time.Millisecond
	for i := 0; ; i++ {
		st = Status{Path: path}
		st.Held, err = f.probeHeld()
		if err != nil {
			return st, false, err
		}
		st.Stale = !st.Held
		b := readRecordBytes(f)
		rec, perr := parseRecord(b)
		if perr != nil {
			st.Corrupt, st.Reason = true, corruptReason(perr)
		} else {
			st.Record = rec
			st.State, _ = recordState(rec)
		}
		settled := !st.Held || (perr == nil && b[len(b)-1] == '\n' && st.State == Running)
		if settled || i == tornRetries {
			break
		}
		time.Sleep(pause)
		pause *= 2
	}
	pk, err := pathKey(path)
	return st, err == nil && pk == f.key(), nil
}
