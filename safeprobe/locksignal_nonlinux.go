//go:build !linux

package safeprobe

import "os"

// signalVerified sends sig to process pid once verify accepts it, through
// the process handle os.FindProcess opens before verify runs where the OS
// has handles (Windows), and otherwise by kill(2) right after verify.
//
//	no process: Windows: os.FindProcess's error; Unix: after verify, os.ErrProcessDone
//	EPERM:      Windows: os.FindProcess's error; Unix: after verify, kill's EPERM
//	zombie:     after verify; kill(2) sends a zombie nothing, and Windows has none
//	thread ID:  Windows: os.FindProcess's error; Unix: after verify, as the PID it equals
func signalVerified(pid int, sig os.Signal, verify func() error) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	defer p.Release()
	if err := verify(); err != nil {
		return err
	}
	return sendSignal(p, sig)
}

// sendSignal is the one place signalVerified signals a process, or runs
// an owner action (WithOwnerProcess) on it; tests replace it to record
// every target.
var sendSignal = func(p *os.Process, sig os.Signal) error {
	if a, ok := sig.(*ownerAction); ok {
		return a.fn(p)
	}
	return p.Signal(sig)
}
