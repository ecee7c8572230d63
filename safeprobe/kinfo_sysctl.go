//go:build darwin || freebsd

package safeprobe

import "errors"

// kinfo is what safeprobe reads from the kernel's kinfo_proc
// (kinfo_darwin.go, kinfo_freebsd.go).
type kinfo struct {
	zombie bool
	start  uint64 // microseconds since the Unix epoch, as the kernel says
	uid    uint32 // the effective user ID
}

// errNoProcess is procInfo's error for a PID no process has.
var errNoProcess = errors.New("no such process")

func timevalMicros(sec, usec int64) uint64 {
	return uint64(sec)*1_000_000 + uint64(usec)
}
