// Package unix is the part of golang.org/x/sys/unix that the analyzer's
// tests use, with the real signatures.
package unix

import "syscall"

type Signal = syscall.Signal

type Errno = syscall.Errno

const (
	EPERM    = syscall.Errno(0x1)
	ESRCH    = syscall.Errno(0x3)
	SIGKILL  = syscall.Signal(0x9)
	SIGTERM  = syscall.Signal(0xf)
	SYS_KILL = 62
	F_OK     = 0x0
)

func Kill(pid int, sig syscall.Signal) (err error) { return syscall.Kill(pid, sig) }

func PidfdOpen(pid int, flags int) (int, error) { return 0, nil }

func PidfdSendSignal(pidfd int, sig Signal, info *Siginfo, flags int) error { return nil }

type Siginfo struct{}

func Access(path string, mode uint32) (err error) { return nil }

func Syscall(trap, a1, a2, a3 uintptr) (r1, r2 uintptr, err Errno) { return 0, 0, 0 }
