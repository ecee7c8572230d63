//go:build darwin || freebsd

package safeprobe

import "syscall"

// sysctlOS is every system call the macOS and FreeBSD probe makes. Tests
// substitute it to prove which PIDs a probe ever signals.
type sysctlOS struct {
	kill     func(pid int, sig syscall.Signal) error
	procInfo func(pid int) (kinfo, error)
	// identity is what names a process for ever: its start time and
	// boot ID (see identity_darwin.go and identity_freebsd.go).
	identity func(info kinfo) (start uint64, boot string, err error)
}

var sys = sysctlOS{
	kill:     syscall.Kill,
	procInfo: readKinfo,
	identity: kernIdentity,
}
