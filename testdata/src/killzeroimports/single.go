package killzeroimports

import "golang.org/x/sys/unix"

func alive(pid int) bool { return unix.Kill(pid, 0) == nil } // want `PL001`
