// Package ignore exercises //pidlint:ignore.
package ignore

import "syscall"

func sameLine(pid int) bool {
	return syscall.Kill(pid, 0) == nil //pidlint:ignore PL001 the pid is our own child, started as the same user
}

func lineAbove(pid int) bool {
	//pidlint:ignore PL001,PL002 checked by the caller
	return syscall.Kill(pid, 0) == nil
}

func wrongRule(pid int) bool {
	//pidlint:ignore PL004 wrong rule // want `this pidlint:ignore PL004 matched nothing`
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func noReason(pid int) bool {
	//pidlint:ignore PL001 // want `pidlint:ignore PL001 needs a reason after the rule`
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func stale() {
	//pidlint:ignore PL001 nothing here any more // want `this pidlint:ignore PL001 matched nothing`
}
