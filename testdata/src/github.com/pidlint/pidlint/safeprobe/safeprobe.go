// Package safeprobe is the API the analyzer's suggested fixes call, with
// the real signatures.
package safeprobe

import "os"

func Alive(pid int) bool { return false }

func Check(pid int) error { return nil }

func CheckProcess(p *os.Process) error { return nil }

func ParsePID(s string) (int, error) { return 0, nil }

func ValidatePID(pid int) error { return nil }

type State uint8

type Identity struct {
	PID       int
	StartTime uint64
	BootID    string
}

func (id Identity) Probe() (State, error) { return 0, nil }

func (id Identity) Same(other Identity) bool { return false }

func Lookup(pid int) (Identity, error) { return Identity{}, nil }

type Record struct {
	PID         int
	Identity    Identity
	HasIdentity bool
}

type Status struct {
	Path   string
	Held   bool
	Stale  bool
	Record Record
	State  State
}

func Inspect(path string) (Status, error) { return Status{}, nil }

func SignalOwner(path string, sig os.Signal) error { return nil }

type LockOptions struct{}

type Lock struct{}

func (l *Lock) Release() error { return nil }

func TryAcquire(path string, opts *LockOptions) (*Lock, error) { return nil, nil }
