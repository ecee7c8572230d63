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

// Inspect reads a record again while the lock is held and the record is
// not yet settled, with pauses doubling from 1 ms: up to tornRetries times
// (31 ms in all) for a complete record that does not parse or names a
// process that is not running (the predecessor's, until the new holder
// truncates), and up to tornRetriesWriting times (511 ms in all) for an
// empty record or one without its final newline, which only a writer
// between its truncate and its write leaves: a writer stalled by a loaded
// machine must not make a reader report a torn record.
const (
	tornRetries        = 5
	tornRetriesWriting = 9
)

// tornPause is the pause between reads, time.Sleep; tests count the calls.
var tornPause = time.Sleep

// Inspect reports who holds the lock at path, without taking it. The error
// wraps fs.ErrNotExist when there is no lock file.
//
// Whether the lock is held is asked without taking any lock where the OS
// lists lock holders: on Linux, /proc/locks, which names each flock's file
// by device and inode, so an Inspect can never make a TryAcquire fail.
// Elsewhere (macOS, the BSDs, and Linux outside the initial PID namespace,
// where /proc/locks omits holders it cannot name) it takes a shared lock
// on a separate open file without waiting, and drops it at once: the
// kernel's own answer, unlike F_GETLK, which on Linux does not see flock
// locks. For that moment a TryAcquire elsewhere would fail; TryAcquire
// tries again after short pauses (200 µs, then 2 ms) before it reports
// ErrLocked, which covers the probe unless the inspecting process is
// descheduled while it holds the shared lock.
//
// Torn reads: a new holder truncates the file and then writes its record,
// so a reader may see an empty file, a partial record, or its predecessor's
// record. The rule: while the lock is held, a record that is empty, lacks
// its final newline, does not parse, or names a process that is not running
// is read again, for about 30 ms, or half a second while the write is
// visibly unfinished (the file is empty or lacks its final newline), and
// the last reading is reported. A free lock's record is reported as read.
func Inspect(path string) (Status, error) {
	return inspect(pathOf(path), "inspect", nil)
}

// inspect is Inspect of p. check, if not nil, vets the open file before
// its record is read; its error ends inspect, as an op error.
func inspect(p lockPath, op string, check func(lockFile) error) (Status, error) {
	for range maxReopen {
		st, ok, err := inspectOnce(p, check)
		if err != nil {
			return Status{Path: p.path}, &LockError{Op: op, Path: p.path, Err: err}
		}
		if ok {
			return st, nil
		}
	}
	return Status{Path: p.path}, &LockError{Op: op, Path: p.path,
		Err: errors.New("the file at the path kept changing while being inspected")}
}

// inspectOnce inspects the file p names; ok is false if the file was
// replaced or removed meanwhile.
func inspectOnce(p lockPath, check func(lockFile) error) (st Status, ok bool, err error) {
	f, err := openLockFileAt(p, false, 0)
	if err != nil {
		return st, false, err
	}
	defer f.Close()
	if check != nil {
		if err := check(f); err != nil {
			return st, false, err
		}
	}
	pause := time.Millisecond
	for i := 0; ; i++ {
		st = Status{Path: p.path}
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
		writing := len(b) == 0 || b[len(b)-1] != '\n'
		settled := !st.Held || (perr == nil && !writing && st.State == Running)
		if settled || i >= tornRetries && !writing || i >= tornRetriesWriting {
			break
		}
		tornPause(pause)
		pause *= 2
	}
	pk, err := pathKey(p)
	return st, err == nil && pk == f.key(), nil
}
