package killzeroimports

import (
	"os"

	"golang.org/x/sys/unix"
)

// unix is the only import of its group and goes with the fix; safeprobe
// comes in after the standard library.

func exists(pid int) bool { return unix.Kill(pid, 0) == nil } // want `PL001`

func self() int { return os.Getpid() }
