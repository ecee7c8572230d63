package unixonly

import "syscall"

func stop(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }
