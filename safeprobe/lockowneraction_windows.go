package safeprobe

import (
	"errors"
	"os"
)

// WithOwnerProcess calls fn with the process holding the lock at path once
// it is verified as SignalOwnerWith verifies a process before signalling
// it, with the same refusals and opts, and returns fn's error. fn runs
// while the process handle the holder was verified through is open, and
// Windows does not give a process's PID to another while a handle to it
// is open: fn may act on p.Pid by number (send a console control event to
// a process group it leads, say, or open it again) without reaching
// another process. p is released when fn returns; fn must not keep it.
//
// It is Windows only: elsewhere a process's PID may be reused as soon as
// it has exited and been reaped, whatever handle is open, and
// SignalOwnerWith is the way to act on the holder.
func WithOwnerProcess(path string, opts *SignalOptions, fn func(p *os.Process) error) error {
	if fn == nil {
		return &LockError{Op: "signal", Path: path, Err: errors.New("nil action")}
	}
	return SignalOwnerWith(path, &ownerAction{fn: fn}, opts)
}
