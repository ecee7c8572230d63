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

func byName(pid int) bool {
	//pidlint:ignore kill-zero the pid is our own child
	return syscall.Kill(pid, 0) == nil
}

func byIDAndName(pid int) bool {
	return syscall.Kill(pid, 0) == nil //pidlint:ignore signal-zero,pl001 checked by the caller
}

func unknownRule(pid int) bool {
	//pidlint:ignore PL999 no such rule // want `pidlint:ignore names unknown rule "PL999": want a rule ID \(PL001 to PL008\) or name`
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func unknownAmongKnown(pid int) bool {
	//pidlint:ignore PL001,kill-zer0 a typo leaves the finding // want `names unknown rule "kill-zer0"`
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func reasonWithoutRule(pid int) bool {
	//pidlint:ignore the pid is our own child // want `pidlint:ignore names unknown rule "the"`
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func nameWithoutReason(pid int) bool {
	//pidlint:ignore kill-zero // want `pidlint:ignore kill-zero needs a reason after the rule`
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func malformed(pid int) bool {
	//pidlint:ignore // want `malformed pidlint:ignore: want //pidlint:ignore PL00N\[,rule-name\] reason`
	return syscall.Kill(pid, 0) == nil // want `PL001`
}

func staleByName() {
	//pidlint:ignore proc-stat nothing here any more // want `this pidlint:ignore proc-stat matched nothing`
}
