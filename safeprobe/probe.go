package safeprobe

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
)

// State is what the operating system says about a PID.
type State uint8

const (
	// Unknown means the OS would not say; the accompanying error says why.
	Unknown State = iota
	// Running means a process with this PID exists and has not exited.
	// A stopped process and another user's process are Running.
	Running
	// Zombie means the process has exited but its parent has not reaped it.
	// A zombie is not running: it holds no resources but its PID.
	Zombie
	// NotFound means no process has this PID.
	NotFound
	// Reused means the PID exists but names another process than the one an
	// Identity recorded. Only Identity.Probe reports it.
	Reused
)

var stateNames = [...]string{
	Unknown:  "unknown",
	Running:  "running",
	Zombie:   "zombie",
	NotFound: "not found",
	Reused:   "reused",
}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// MaxPID is the largest PID any supported OS hands out or Go's os package can
// represent without truncation: os.FindProcess truncates to int32, so
// 1<<32+1 would probe PID 1 and 1<<32-1 would probe -1.
const MaxPID = math.MaxInt32

// ErrInvalidPID is wrapped by the error for a PID that no process can have.
// kill(0, sig) signals the caller's process group and kill(-1, sig) every
// process the caller may signal, so such values must never reach a syscall.
var ErrInvalidPID = errors.New("invalid pid")

// ErrUnsupported is wrapped by the error of a probe on an OS safeprobe cannot
// query.
var ErrUnsupported = errors.New("process probe not supported on this OS")

// ValidatePID returns an error wrapping ErrInvalidPID unless 1 <= pid <= MaxPID.
// Every safeprobe function that takes a PID calls it before any syscall.
func ValidatePID(pid int) error {
	if pid <= 0 || pid > MaxPID {
		return fmt.Errorf("safeprobe: pid %d: %w (want 1..%d)", pid, ErrInvalidPID, MaxPID)
	}
	return nil
}

// ParsePID parses the PID a PID file or a command line holds: one decimal
// number with optional surrounding blanks and line end, no sign, in
// 1..MaxPID. Anything else (empty, "0", "-1", "+5", "0x10", "99999999999")
// is an error wrapping ErrInvalidPID, never a PID that could reach kill.
func ParsePID(s string) (int, error) {
	pid, err := parsePIDLine([]byte(strings.TrimRight(s, "\n")))
	if err != nil {
		return 0, fmt.Errorf("safeprobe: pid %w", err)
	}
	return pid, nil
}

// Each probe file of an OS set (the suffixes in doc.go) defines probe(pid)
// for its OSes, and probe_unix.go, probe_windows.go and probe_other.go
// probeProcess(p); oslayer_linux.go, oslayer_sysctl.go and
// oslayer_windows.go hold the table of system calls they make (sys), which
// tests substitute.

// Probe reports the state of the process with the given PID. The error is
// non-nil only when the state is Unknown; it wraps ErrInvalidPID for a PID
// that no process can have.
//
// Unlike kill(pid, 0), Probe counts another user's process as Running (EPERM
// means it exists), a zombie as Zombie, a Linux thread ID as NotFound, and on
// Windows neither sends a signal nor mistakes pid+1..pid+3 for pid.
func Probe(pid int) (State, error) {
	if err := ValidatePID(pid); err != nil {
		return Unknown, err
	}
	return probe(pid)
}

// Alive reports whether the process with the given PID is running. It is
// false for a zombie, an invalid PID, or a state the OS would not reveal.
func Alive(pid int) bool {
	s, _ := Probe(pid)
	return s == Running
}

// Check is the drop-in replacement for syscall.Kill(pid, 0) as a liveness
// test: nil means the process is running. Where kill(2) says EPERM, Check
// says nil, because the process exists. For a process that has exited
// (including a zombie) or never existed, the error satisfies both
// errors.Is(err, os.ErrProcessDone) and errors.Is(err, syscall.ESRCH).
func Check(pid int) error {
	s, err := Probe(pid)
	return stateError(pid, s, err)
}

// CheckProcess is the drop-in replacement for p.Signal(syscall.Signal(0)) as
// a liveness test, with the contract of Check. Where the OS offers a handle
// on the process (a pidfd on Linux, a process handle on Windows), it is used,
// so a PID reused since p was found is not mistaken for p.
func CheckProcess(p *os.Process) error {
	if p == nil {
		return fmt.Errorf("safeprobe: nil *os.Process: %w", ErrInvalidPID)
	}
	if err := ValidatePID(p.Pid); err != nil {
		return err
	}
	s, err := probeProcess(p)
	return stateError(p.Pid, s, err)
}

func stateError(pid int, s State, err error) error {
	switch s {
	case Running:
		return nil
	case Unknown:
		if errors.Is(err, ErrInvalidPID) {
			return err
		}
	}
	return &ProcessError{PID: pid, State: s, Err: err}
}

// ProcessError is the error of Check and CheckProcess for a process that is
// not running, or whose state the OS would not reveal.
type ProcessError struct {
	PID   int
	State State
	Err   error // the OS error behind an Unknown state; nil otherwise
}

func (e *ProcessError) Error() string {
	switch e.State {
	case Unknown:
		return fmt.Sprintf("safeprobe: process %d: state unknown: %v", e.PID, e.Err)
	case Zombie:
		return fmt.Sprintf("safeprobe: process %d has exited (zombie, not yet reaped)", e.PID)
	case Reused:
		return fmt.Sprintf("safeprobe: process %d has exited; its pid now names another process", e.PID)
	}
	return fmt.Sprintf("safeprobe: process %d not found", e.PID)
}

// Is makes a process that is gone match os.ErrProcessDone and syscall.ESRCH,
// the two errors callers of kill(pid, 0) and Process.Signal already test.
func (e *ProcessError) Is(target error) bool {
	if e.State == Unknown || e.State == Running {
		return false
	}
	return target == os.ErrProcessDone || target == errNoSuchProcess
}

func (e *ProcessError) Unwrap() error { return e.Err }
