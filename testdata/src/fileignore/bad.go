package fileignore

import "syscall"

//pidlint:file-ignore PL001 // want `pidlint:file-ignore PL001 needs a reason after the rule`

//pidlint:file-ignore kil-zero,PL001 a typo // want `pidlint:file-ignore names unknown rule "kil-zero": want a rule ID \(PL001 to PL008\) or name`

//pidlint:file-ignore bad-ignore a bad directive is not a rule // want `pidlint:file-ignore names unknown rule "bad-ignore"`

//pidlint:file-ignore // want `malformed pidlint:file-ignore: want //pidlint:file-ignore PL00N\[,rule-name\] reason`

// A bad directive suppresses nothing.
func badlyIgnored(pid int) bool {
	return syscall.Kill(pid, 0) == nil // want `PL001`
}
