package negatives

import (
	"fmt"
	"syscall"
)

// procOwner reads the owner of /proc/<pid> from the Stat_t it fills.
func procOwner(pid int) (uint32, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(fmt.Sprintf("/proc/%d", pid), &st); err != nil {
		return 0, fmt.Errorf("stat of process %d: %w", pid, err)
	}
	return st.Uid, nil
}
