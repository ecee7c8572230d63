package safeprobe

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// kernIdentity is the start time counted from boot, and no boot ID.
// FreeBSD draws no boot ID, and reports ki_start as the start since boot
// plus kern.boottime, which moves whenever the clock is set: taking
// kern.boottime off again gives a start time that does not move. A
// process of an earlier boot with the same PID would also have to have
// started at the same microsecond since boot to be taken for this one.
func kernIdentity(info kinfo) (uint64, string, error) {
	tv, err := unix.SysctlTimeval("kern.boottime")
	if err != nil {
		return 0, "", fmt.Errorf("sysctl kern.boottime: %w", err)
	}
	return info.start - timevalMicros(int64(tv.Sec), int64(tv.Usec)), "", nil
}
