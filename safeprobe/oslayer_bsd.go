//go:build darwin || freebsd

package safeprobe

import (
	"errors"
	"syscall"
)

// bsdOS is every system call the macOS and FreeBSD probe makes. Tests
// substitute it to prove which PIDs a probe ever signals.
type bsdOS struct {
	kill     func(pid int, sig syscall.Signal) error
	procInfo func(pid int) (kinfo, error)
	// identity is what names a process for ever: its start time and
	// boot ID (see identity_darwin.go and identity_freebsd.go).
	identity func(info kinfo) (start uint64, boot string, err error)
}

// kinfo is what safeprobe reads from the kernel's kinfo_proc.
type kinfo struct {
	zombie bool
	start  uint64 // microseconds since the Unix epoch, as the kernel says
}

// errNoProcess is procInfo's error for a PID no process has.
var errNoProcess = errors.New("no such process")

var sys = bsdOS{
	kill:     syscall.Kill,
	procInfo: readKinfo,
	identity: kernIdentity,
}

func timevalMicros(sec, usec int64) uint64 {
	return uint64(sec)*1_000_000 + uint64(usec)
}
