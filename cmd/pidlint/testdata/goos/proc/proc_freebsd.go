package proc

import "syscall"

// Running reports whether Pid is alive.
func Running() bool {
	err := syscall.Kill(Pid, 0)
	return err == nil
}
