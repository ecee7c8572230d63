package unixpkg

import "syscall"

func Stop(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }
