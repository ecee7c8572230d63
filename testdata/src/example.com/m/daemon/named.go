package daemon

import (
	"syscall"

	sp "example.com/m/internal/pidlintsafeprobe"
)

func gone(pid int) bool {
	if sp.Check(pid) == nil {
		return false
	}
	return syscall.Kill(pid, 0) != nil // want `PL001`
}
