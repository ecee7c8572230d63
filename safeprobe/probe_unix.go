//go:build unix

package safeprobe

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// probeProcess asks p itself first: on Linux its Signal uses the pidfd Go
// opened in os.FindProcess or os.StartProcess, so a PID reused since then
// reads as gone. The PID probe then tells a zombie or a thread apart, and a
// second signal check catches a process that exited, and whose PID was
// taken, while the PID probe ran.
//
//	no process: NotFound: Signal says os.ErrProcessDone
//	EPERM:      as probe: Signal's EPERM means the process exists
//	zombie:     as probe: Signal succeeds for a zombie
//	thread ID:  as probe: os.FindProcess gives a Linux thread ID no pidfd, and Signal succeeds
func probeProcess(p *os.Process) (State, error) {
	if err := signalZero(p); err != nil {
		if errors.Is(err, os.ErrProcessDone) {
			return NotFound, nil
		}
		return Unknown, fmt.Errorf("safeprobe: process %d: %w", p.Pid, err)
	}
	s, err := probe(p.Pid)
	if s == Running && errors.Is(signalZero(p), os.ErrProcessDone) {
		return NotFound, nil
	}
	return s, err
}

// signalZero is p.Signal(0) with EPERM read as "exists".
func signalZero(p *os.Process) error {
	err := p.Signal(syscall.Signal(0))
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	if errors.Is(err, syscall.EPERM) {
		return nil
	}
	return err
}

// killState reads kill(pid, 0)'s answer: EPERM means the process exists
// (another user's), ESRCH that no process has the PID.
func killState(pid int, err error) (State, error) {
	switch err {
	case nil, syscall.EPERM:
		return Running, nil
	case syscall.ESRCH:
		return NotFound, nil
	}
	return Unknown, fmt.Errorf("safeprobe: kill(%d, 0): %w", pid, err)
}
