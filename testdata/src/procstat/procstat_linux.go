package procstat

import (
	"fmt"

	"golang.org/x/sys/unix"
)

func aliveLinux(pid int) bool {
	return unix.Access(fmt.Sprintf("/proc/%d", pid), unix.F_OK) == nil // want `PL004: /proc/<pid> exists for zombies and thread IDs, and hidepid=2 hides other users' processes; use safeprobe.Alive`
}
