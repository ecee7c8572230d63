package safeprobe

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// takeoverSuffix is appended to a lock path to name its takeover marker.
const takeoverSuffix = ".takeover"

// takeoverJSON is a takeover marker: the requester and the request's times.
type takeoverJSON struct {
	processJSON
	Requested string `json:"requested"`
	Expires   string `json:"expires"`
}

// takeoverRequest is a parsed takeover marker.
type takeoverRequest struct {
	requester   Identity // PID only unless hasIdentity
	hasIdentity bool
	expires     time.Time
}

// RequestTakeover asks the holder of the lock at path to release it, by
// writing path+".takeover"; the request expires after ttl.
//
// The takeover protocol: a process that wants a held lock (a new version of a
// daemon replacing the running one, say) does not kill the holder; it asks:
//
//  1. The requester calls RequestTakeover(path, ttl), which atomically
//     writes path+".takeover" (a temporary file renamed into place) naming
//     the requester (PID, start time, boot) and an expiry time, then calls
//     Acquire(ctx, path, …) and waits.
//  2. The holder polls (*Lock).TakeoverRequested, say once a second. When it
//     reports true, the holder finishes its work and calls Release.
//  3. Whoever acquires the lock next removes the marker if it wrote it or it
//     has expired; a request from someone else stands, so a process that
//     took the lock before the requester is asked in turn.
//
// The marker is advisory: a holder that does not poll keeps the lock, and
// the requester's Acquire ends with its context. A marker that has expired,
// is corrupt, names the holder itself, or names a requester that has
// verifiably exited is ignored. A request replaces any earlier one.
func RequestTakeover(path string, ttl time.Duration) error {
	fail := func(err error) error { return &LockError{Op: "takeover", Path: path, Err: err} }
	if ttl <= 0 {
		return fail(fmt.Errorf("ttl %v is not positive", ttl))
	}
	// The marker is written beside the lock file: walked as TryAcquire
	// walks it, so that another user's symlink above it cannot send the
	// marker, written as this user, anywhere else.
	if _, err := checkedPath(path, lockFilePath); err != nil {
		return fail(err)
	}
	now := time.Now().UTC()
	m := takeoverJSON{
		processJSON: processJSON{V: 1, PID: os.Getpid(), Prog: recordedName(programName()), Host: hostName()},
		Requested:   now.Format(time.RFC3339Nano),
		Expires:     now.Add(ttl).Format(time.RFC3339Nano),
	}
	id, noID, err := selfToRecord()
	if err != nil {
		return fail(err)
	}
	if noID == "" {
		m.setIdentity(id)
	} else {
		m.NoID = recordedName(noID)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return fail(err)
	}
	marker := path + takeoverSuffix
	tmp, err := createMarker(marker + "." + randomHex() + ".tmp")
	if err != nil {
		return fail(err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), marker)
	}
	if err != nil && displace(marker) {
		err = os.Rename(tmp.Name(), marker)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fail(err)
	}
	return nil
}

// displace moves whatever is at the marker's name aside, to a name no one
// can have made in advance, and removes it unless it is a directory with
// something in it (which then stays under that name). Another user may
// have put a directory there, or, in a sticky directory like /tmp, a file
// a process that is not root may not replace: a marker name made in advance
// must not block a request. It reports whether the name is free now.
func displace(marker string) bool {
	aside := marker + ".displaced." + randomHex()
	if os.Rename(marker, aside) != nil {
		return false
	}
	os.Remove(aside)
	return true
}

// randomHex is 16 random hex digits, for names no one can make in
// advance.
func randomHex() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("safeprobe: crypto/rand: " + err.Error()) // the OS's random source does not fail
	}
	return hex.EncodeToString(b[:])
}

// TakeoverRequested reports whether another process has asked, through
// RequestTakeover, for the lock, and who. It is false for a released Lock
// and for a marker that is missing, corrupt, expired, the holder's own,
// from a requester that has exited, or owned by another user than the lock
// file (on Unix): a marker anyone could write would let anyone make every
// holder leave.
func (l *Lock) TakeoverRequested() (bool, Identity) {
	// Held throughout: Release may let a LockDir's directory go, whose
	// descriptor readTakeover uses.
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return false, Identity{}
	}
	req, _, err := readTakeover(l.loc, l.f)
	if err != nil || !time.Now().Before(req.expires) {
		return false, Identity{}
	}
	if req.requester.PID == l.owner.PID &&
		(!req.hasIdentity || !l.owner.HasIdentity || req.requester.Same(l.owner.Identity)) {
		return false, Identity{}
	}
	if req.hasIdentity {
		if s, _ := req.requester.Probe(); s == NotFound || s == Reused {
			return false, Identity{}
		}
	}
	return true, req.requester
}

// removeOwnTakeover removes the takeover marker of the lock on f just
// acquired at p if this process wrote it or it has expired, and only if
// the marker read is still the one at its path. Another user's marker is
// left alone.
func removeOwnTakeover(p lockPath, f lockFile) {
	req, k, err := readTakeover(p, f)
	if err != nil {
		return
	}
	mine := req.requester.PID == os.Getpid()
	if mine && req.hasIdentity {
		self, err := Self()
		mine = err == nil && self.Same(req.requester)
	}
	if !mine && time.Now().Before(req.expires) {
		return
	}
	// Checking the marker's inode and then removing it could remove a
	// request renamed into place in between. Move it aside instead, to a
	// name no one can have made in advance, and put back what turns out
	// to be a newer request, unless a newer one still has taken its place.
	marker := p.withSuffix(takeoverSuffix)
	aside := marker.withSuffix(".done." + randomHex())
	if testHookTakeoverRemoving != nil {
		testHookTakeoverRemoving()
	}
	if renameName(marker, aside) != nil {
		return
	}
	if ak, err := pathKey(aside); err == nil && ak != k {
		linkName(aside, marker)
	}
	removeName(aside)
}

// testHookTakeoverRemoving, if set, runs in removeOwnTakeover once the
// marker it read is found removable, before it is removed.
var testHookTakeoverRemoving func()

// readTakeover reads and parses the takeover marker of the lock on lock
// at p, with the same refusals as a lock file (no symlink, regular, one
// link), and refuses a marker whose owner is not the lock file's.
func readTakeover(p lockPath, lock lockFile) (takeoverRequest, fileKey, error) {
	f, err := openLockFileAt(p.withSuffix(takeoverSuffix), false, 0)
	if err != nil {
		return takeoverRequest{}, fileKey{}, err
	}
	defer f.Close()
	if f.owner() != lock.owner() {
		return takeoverRequest{}, fileKey{}, fmt.Errorf("%w: takeover marker owned by another user than the lock file", ErrUnsafePath)
	}
	req, err := parseTakeover(readRecordBytes(f))
	return req, f.key(), err
}

func parseTakeover(b []byte) (takeoverRequest, error) {
	if len(b) > maxRecordSize {
		return takeoverRequest{}, errors.New("takeover marker too large")
	}
	var m takeoverJSON
	if err := json.Unmarshal(b, &m); err != nil {
		return takeoverRequest{}, fmt.Errorf("takeover marker: %w", err)
	}
	if m.V < 1 {
		return takeoverRequest{}, fmt.Errorf("takeover marker: version %d", m.V)
	}
	if err := ValidatePID(m.PID); err != nil {
		return takeoverRequest{}, fmt.Errorf("takeover marker: %w", err)
	}
	expires, err := time.Parse(time.RFC3339Nano, m.Expires)
	if err != nil {
		return takeoverRequest{}, fmt.Errorf("takeover marker: expires: %w", err)
	}
	requester, hasIdentity := m.identity()
	return takeoverRequest{requester: requester, hasIdentity: hasIdentity, expires: expires}, nil
}
