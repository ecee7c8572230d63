//go:build darwin || freebsd

package safeprobe

import (
	"errors"
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// bsdOS is every system call the macOS and FreeBSD probe makes. Tests
// substitute it to prove which PIDs a probe ever signals.
type bsdOS struct {
	kill     func(pid int, sig syscall.Signal) error
	procInfo func(pid int) (kinfo, error)
	bootTime func() (string, error)
}

// kinfo is what safeprobe reads from the kernel's kinfo_proc.
type kinfo struct {
	zombie bool
	start  uint64 // microseconds since the Unix epoch
}

// errNoProcess is procInfo's error for a PID no process has.
var errNoProcess = errors.New("no such process")

var sys = bsdOS{
	kill:     syscall.Kill,
	procInfo: readKinfo,
	bootTime: kernBootTime,
}

// kernBootTime names the boot by its time, as macOS and FreeBSD have no boot
// id.
func kernBootTime() (string, error) {
	tv, err := unix.SysctlTimeval("kern.boottime")
	if err != nil {
		return "", fmt.Errorf("safeprobe: sysctl kern.boottime: %w", err)
	}
	return fmt.Sprintf("%d.%06d", int64(tv.Sec), int64(tv.Usec)), nil
}

func timevalMicros(sec, usec int64) uint64 {
	return uint64(sec)*1_000_000 + uint64(usec)
}
