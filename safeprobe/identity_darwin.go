package safeprobe

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// kernIdentity is the start time as the kernel recorded it at fork (wall
// clock, never adjusted afterwards) and the boot session UUID the kernel
// draws at boot. Not kern.boottime: macOS moves it whenever the clock is
// set, which would make every live process read as Reused.
func kernIdentity(info kinfo) (uint64, string, error) {
	boot, err := unix.Sysctl("kern.bootsessionuuid")
	if err == nil && boot == "" {
		err = errors.New("empty answer")
	}
	if err != nil {
		return 0, "", fmt.Errorf("sysctl kern.bootsessionuuid: %w", err)
	}
	return info.start, boot, nil
}
