package killzeroimports

// A dot import: the fix would leave "syscall" unused, so none is offered.

import . "syscall"

func dotAlive(pid int) bool {
	return Kill(pid, 0) == nil // want `PL001: syscall.Kill\(pid, 0\) as a liveness test`
}
