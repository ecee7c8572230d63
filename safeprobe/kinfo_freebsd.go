package safeprobe

import (
	"encoding/binary"
	"fmt"

	"golang.org/x/sys/unix"
)

// Offsets in FreeBSD's struct kinfo_proc (<sys/user.h>) on 64-bit
// platforms, whose size the kernel reports in ki_structsize. x/sys has no
// Go type for it.
const (
	kinfoSize      = 1088
	kinfoPidOff    = 72  // ki_pid, int32
	kinfoStartOff  = 336 // ki_start, struct timeval {int64 sec; int64 usec}
	kinfoStatOff   = 388 // ki_stat, char
	kinfoUIDOff    = 168 // ki_uid, uint32: the effective user ID
	freebsdSZOMB   = 5
	kinfoStructOff = 0 // ki_structsize, int32
)

// readKinfo reads the kinfo_proc of the process from sysctl kern.proc.pid.
//
//	no process: errNoProcess: ESRCH
//	EPERM:      its kinfo; errNoProcess where security.bsd.see_other_uids=0 hides it (ESRCH)
//	zombie:     its kinfo, zombie (ki_stat SZOMB)
//	thread ID:  errNoProcess: the kernel answers with its process's record, of another ki_pid
func readKinfo(pid int) (kinfo, error) {
	b, err := unix.SysctlRaw("kern.proc.pid", pid)
	switch {
	case err == unix.ESRCH || err == nil && len(b) == 0:
		return kinfo{}, errNoProcess
	case err != nil:
		return kinfo{}, fmt.Errorf("safeprobe: sysctl kern.proc.pid.%d: %w", pid, err)
	}
	return decodeKinfo(pid, b)
}

func decodeKinfo(pid int, b []byte) (kinfo, error) {
	ne := binary.NativeEndian
	if len(b) < kinfoSize || ne.Uint32(b[kinfoStructOff:]) != kinfoSize {
		return kinfo{}, fmt.Errorf("safeprobe: kinfo_proc of %d bytes: unknown layout: %w", len(b), ErrUnsupported)
	}
	if int(int32(ne.Uint32(b[kinfoPidOff:]))) != pid {
		return kinfo{}, errNoProcess
	}
	return kinfo{
		zombie: b[kinfoStatOff] == freebsdSZOMB,
		start:  timevalMicros(int64(ne.Uint64(b[kinfoStartOff:])), int64(ne.Uint64(b[kinfoStartOff+8:]))),
		uid:    ne.Uint32(b[kinfoUIDOff:]),
	}, nil
}
