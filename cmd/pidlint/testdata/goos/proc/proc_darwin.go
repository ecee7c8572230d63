package proc

import "syscall"

// Running reports whether Pid is alive.
func Running() bool {
	return syscall.Kill(Pid, 0) == nil
}
