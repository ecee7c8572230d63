package safeprobe

import (
	"errors"
	"fmt"
	"os"
)

// Identity names one process for ever: a PID alone is recycled by the OS,
// but a PID with its start time and the boot it started in is not. Where
// the start time is too coarse to tell two processes apart (Linux counts
// it in clock ticks of 10 ms), the kernel's own serial number of the
// process and its PID namespace say more; see doc.go for what each OS
// records.
type Identity struct {
	PID int `json:"pid"`
	// StartTime is when the process started, in the OS's own unit: clock
	// ticks since boot on Linux (as the initial time namespace counts
	// them: a reader in a time namespace takes its boottime offset out, so
	// readers inside and outside agree), microseconds since the Unix epoch on
	// macOS, microseconds since boot on FreeBSD, 100 ns intervals since
	// 1601 (FILETIME) on Windows. None of them moves when the clock is set.
	// It is only ever compared for equality.
	StartTime uint64 `json:"start"`
	// BootID names the boot the process started in: the kernel's boot_id on
	// Linux, kern.bootsessionuuid on macOS. Empty on Windows, where the
	// creation time is absolute and so already differs across boots, and
	// on FreeBSD, which has no boot ID (kern.boottime moves when the clock
	// is set).
	BootID string `json:"boot,omitempty"`
	// Serial is a number the kernel gives the process and no other
	// process of the same boot: the inode of a pidfd on pidfs on Linux
	// 6.9 and later. Zero where the OS has none, where pidfds are not on
	// pidfs (older kernels), and in identities recorded before it was.
	Serial uint64 `json:"serial,omitempty"`
	// PIDNamespace is the inode of the PID namespace the process is in
	// (/proc/<pid>/ns/pid on Linux): the same PID and start time in two
	// containers name two processes. Zero where the OS has none, where it
	// may not be read (another user's process, for an unprivileged
	// caller), and in identities recorded before it was.
	PIDNamespace uint64 `json:"pidns,omitempty"`
}

// Self returns the identity of the calling process. On Linux it is read
// through /proc/self, which names this process even in a /proc mounted
// from another PID namespace (a container that shares its host's), where
// /proc/<pid> names another process or none.
func Self() (Identity, error) { return self.get(lookupSelf) }

// self is the caller's identity, which cannot change: a Go process does
// not fork without exec.
var self cached[Identity]

// Lookup returns the identity of the process that has the PID now. For a PID
// no process has, the error satisfies errors.Is(err, os.ErrProcessDone).
func Lookup(pid int) (Identity, error) {
	if err := ValidatePID(pid); err != nil {
		return Identity{}, err
	}
	return lookup(pid)
}

// Same reports whether id and other name the same process: the PID and
// boot must be equal, and where both have a Serial, which no two processes
// of a boot share, it decides; otherwise the start time must be equal,
// and PIDNamespace too where both have it (zero is "not recorded", so
// identities recorded before those fields existed still match). The
// serial decides over the start time because the start time is read as
// the reader's time namespace counts it: a record written in a time
// namespace by a version of this package that did not count its offset
// out names its process by a start time no one outside reads.
func (id Identity) Same(other Identity) bool {
	if id.PID != other.PID || id.BootID != other.BootID {
		return false
	}
	if id.Serial != 0 && other.Serial != 0 {
		return id.Serial == other.Serial
	}
	return id.StartTime == other.StartTime && sameIfBoth(id.PIDNamespace, other.PIDNamespace)
}

// ErrOtherPIDNamespace is wrapped by the error of Identity.Probe (State
// Unknown) for an identity recorded in another PID namespace than this
// process's, which it does not name here: its PID here names another
// process, or none. Such a process is neither judged exited nor signalled.
var ErrOtherPIDNamespace = errors.New("a process in another PID namespace")

// otherPIDNamespace reports whether id was recorded in another PID
// namespace than this process's, where both are known.
func otherPIDNamespace(id Identity) bool {
	if id.PIDNamespace == 0 {
		return false
	}
	self, err := Self()
	return err == nil && self.PIDNamespace != 0 && self.PIDNamespace != id.PIDNamespace
}

// sameIfBoth compares two optional numbers, zero meaning unknown.
func sameIfBoth(a, b uint64) bool {
	return a == 0 || b == 0 || a == b
}

func (id Identity) String() string {
	s := fmt.Sprintf("pid %d (start %d", id.PID, id.StartTime)
	if id.BootID != "" {
		s += ", boot " + id.BootID
	}
	if id.Serial != 0 {
		s += fmt.Sprintf(", serial %d", id.Serial)
	}
	if id.PIDNamespace != 0 {
		s += fmt.Sprintf(", pidns %d", id.PIDNamespace)
	}
	return s + ")"
}

// Probe reports the state of the process id names: Reused when its PID now
// belongs to another process (also one started in a later boot), otherwise
// what Probe says of the PID. An identity recorded in another PID
// namespace than this process's (a container's, seen from its host, or
// the other way round) that its PID does not name here is Unknown, with an
// error wrapping ErrOtherPIDNamespace: that PID means another process
// here, or none, and says nothing of the recorded one.
func (id Identity) Probe() (State, error) {
	if err := ValidatePID(id.PID); err != nil {
		return Unknown, err
	}
	cur, s, err := lookupAgainst(id)
	switch {
	case err == nil && id.Same(cur):
		return s, nil
	case otherPIDNamespace(id):
		return Unknown, fmt.Errorf("safeprobe: %v: %w, whose pid %d names another process here, or none", id, ErrOtherPIDNamespace, id.PID)
	case errors.Is(err, os.ErrProcessDone):
		return NotFound, nil
	case err != nil:
		return Unknown, err
	}
	return Reused, nil
}

// probeThenLookup is lookupState where the OS answers the state and the
// identity in two questions (all but Linux), the state first: should the
// process exit and its PID be taken in between, the identity read second
// is the newcomer's, so the answer is Reused rather than the old process
// Running.
func probeThenLookup(pid int) (Identity, State, error) {
	s, err := probe(pid)
	switch {
	case err != nil:
		return Identity{}, s, err
	case s == NotFound:
		return Identity{}, NotFound, processDone(pid)
	}
	id, err := lookup(pid)
	if err != nil {
		return Identity{}, Unknown, err
	}
	return id, s, nil
}

// Each identity file of an OS set (the suffixes in doc.go) defines the
// same functions for its OSes:
//
//	lookup(pid) (Identity, error)                // the identity alone
//	lookupSelf() (Identity, error)               // this process's
//	lookupState(pid) (Identity, State, error)    // with the state, consistent
//	processUID(pid) (uint32, error)              // the effective user (not Windows)
//
// and identity_linux.go and identity_nonlinux.go lookupAgainst(want)
// (Identity, State, error), lookupState of want.PID reading only what
// tells the process from want (all of it outside Linux).

// processDone is the error of lookup for a PID that no process has.
func processDone(pid int) error {
	return &ProcessError{PID: pid, State: NotFound}
}
