package customsafeprobe

import (
	"fmt"
	"syscall"
)

func running(pid int) bool {
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func describe(pid int) string { return fmt.Sprint(pid) }
