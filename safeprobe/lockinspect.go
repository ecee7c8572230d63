package safeprobe

import (
	"context"
	"errors"
	"fmt"
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
	// Corrupt reports that the file's content is not an owner record.
	Corrupt bool
	// OtherPIDNamespace reports that the record names a process in
	// another PID namespace than this process's (a container's, seen from
	// its host): its PID here is another process, or none, so State is
	// Unknown; the record is not stale for that.
	OtherPIDNamespace bool
	// Reason says why the record is corrupt, names another PID namespace,
	// or has no identity (Record.NoIdentity); "" otherwise.
	Reason string
	// State is what the OS says of the process Record names:
	// Identity.Probe when the record has an identity (Reused for a PID
	// now owned by another process, or by any process of a later boot;
	// Unknown for one in another PID namespace), Probe of the PID for a
	// bare PID file, Unknown when Corrupt.
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

// tornPause is the pause between reads, sleepCtx; tests count the calls.
var tornPause = sleepCtx

// Inspect reports who holds the lock at path, without taking it. The error
// wraps fs.ErrNotExist when there is no lock file. It is InspectContext
// without a bound: see there.
func Inspect(path string) (Status, error) {
	return InspectContext(context.Background(), path)
}

// InspectContext reports who holds the lock at path, without taking it,
// giving up when ctx ends (the error then wraps ctx's error). The error
// wraps fs.ErrNotExist when there is no lock file.
//
// Whether the lock is held is asked without taking any lock where the OS
// says who holds one, so that an Inspect cannot make a TryAcquire fail. On
// Linux it asks first the process the record names, through its own
// descriptors (/proc/<pid>/fdinfo lists the flocks held through each), at
// the cost of what that process has; then /proc/locks, which can only say
// that no one holds the lock (it names a file by its file system's device
// and inode number, which a file on another btrfs subvolume may share), and
// which is read only up to 64 KiB: the kernel walks it from its start for
// each page, so a table that another user filled with hundreds of thousands
// of flocks would take most of a minute. Otherwise (such a file, a larger
// table, macOS, the BSDs, Windows, and Linux outside the initial PID
// namespace, where /proc/locks omits holders it cannot name) it takes the
// exclusive lock on a separate open file without waiting, and drops it at
// once: the kernel's own answer, unlike F_GETLK, which on Linux does not
// see flock locks. For that moment a TryAcquire elsewhere would fail;
// TryAcquire tries again after short pauses (200 µs, then 2 ms) before it
// reports ErrLocked, which covers the probe unless the inspecting process
// is descheduled while it holds the lock, and the probe does the same for
// another's. A shared lock (flock LOCK_SH, taken outside this package)
// counts as held: it stops TryAcquire too. ctx bounds it all, the holder's
// descriptors and the torn reads below included.
//
// Torn reads: a new holder truncates the file and then writes its record,
// so a reader may see an empty file, a partial record, or its predecessor's
// record. The rule: while the lock is held, a record that is empty, lacks
// its final newline, does not parse, or names a process that is not running
// is read again, for about 30 ms, or half a second while the write is
// visibly unfinished (the file is empty or lacks its final newline), and
// the last reading is reported. A free lock's record is reported as read.
func InspectContext(ctx context.Context, path string) (Status, error) {
	if err := validLockPath(path, lockFilePath); err != nil {
		return Status{Path: path}, &LockError{Op: inspectHeld.op, Path: path, Err: err}
	}
	return inspect(ctx, pathOf(path), inspectHeld)
}

// inspectQuery is what inspect asks of a lock file besides its record.
type inspectQuery struct {
	op string // of the error
	// check, if not nil, vets the open file before its record is read;
	// its error ends inspect.
	check func(lockFile) error
}

// inspectHeld is Inspect's query.
var inspectHeld = inspectQuery{op: "inspect"}

// inspect is InspectContext of p, asking q.
func inspect(ctx context.Context, p lockPath, q inspectQuery) (Status, error) {
	for i := 0; i < maxReopen; i++ {
		st, ok, err := inspectOnce(ctx, p, q)
		if err != nil {
			return Status{Path: p.path}, &LockError{Op: q.op, Path: p.path, Err: err}
		}
		if ok {
			return st, nil
		}
	}
	return Status{Path: p.path}, &LockError{Op: q.op, Path: p.path,
		Err: errors.New("the file at the path kept changing while being inspected")}
}

// inspectOnce inspects the file p names; ok is false if the file was
// replaced or removed meanwhile. Whether anyone holds the lock is asked
// once, after the first reading of the record: first of the process it
// names, whose own descriptors say so at what that process has, not what
// every process holds (probeHeld).
func inspectOnce(ctx context.Context, p lockPath, q inspectQuery) (st Status, ok bool, err error) {
	f, err := openLockFileAt(p, false, 0)
	if err != nil {
		return st, false, err
	}
	defer f.Close()
	if q.check != nil {
		if err := q.check(f); err != nil {
			return st, false, err
		}
	}
	var held bool
	pause := time.Millisecond
	for i := 0; ; i++ {
		b := readRecordBytes(f)
		rec, perr := parseRecord(b)
		if i == 0 {
			if held, err = f.probeHeld(ctx, rec.PID); err != nil {
				return st, false, err
			}
		}
		st = Status{Path: p.path, Held: held, Stale: !held}
		if perr != nil {
			st.Corrupt, st.Reason = true, corruptReason(perr)
		} else {
			st.Record = rec
			st.State, st.OtherPIDNamespace, st.Reason = recordStatus(rec, held)
		}
		writing := len(b) == 0 || b[len(b)-1] != '\n'
		settled := !st.Held || (perr == nil && !writing && (st.State == Running || st.OtherPIDNamespace))
		if settled || i >= tornRetries && !writing || i >= tornRetriesWriting {
			break
		}
		if err := tornPause(ctx, pause); err != nil {
			return st, false, err
		}
		pause *= 2
	}
	pk, err := pathKey(p)
	return st, err == nil && pk == f.key(), nil
}

// recordStatus is what Status says of a parsed record: its process's
// state, whether that is in another PID namespace, and why, or why the
// record has no identity.
func recordStatus(rec Record, held bool) (s State, otherNS bool, reason string) {
	s, err := recordState(rec)
	switch {
	case errors.Is(err, ErrOtherPIDNamespace):
		verb := "written"
		if held {
			verb = "held"
		}
		return s, true, fmt.Sprintf("%s by a process in another PID namespace (pidns %d), not pid %d here",
			verb, rec.Identity.PIDNamespace, rec.PID)
	case rec.NoIdentity != "":
		return s, false, "the holder recorded no identity: " + rec.NoIdentity
	}
	return s, false, ""
}
