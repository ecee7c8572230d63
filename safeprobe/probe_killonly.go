//go:build unix && !darwin && !freebsd && !linux

package safeprobe

import "syscall"

// probe on the other Unix systems is kill(pid, 0) with EPERM read as
// "exists"; safeprobe does not read their process tables.
//
//	no process: NotFound
//	EPERM:      Running
//	zombie:     Running
//	thread ID:  what kill(2) says of the number
func probe(pid int) (State, error) {
	return killState(pid, syscall.Kill(pid, 0))
}
