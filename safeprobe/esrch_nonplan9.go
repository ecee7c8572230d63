//go:build !plan9

package safeprobe

import "syscall"

// errNoSuchProcess is the error kill(2) returns for a PID no process has.
var errNoSuchProcess error = syscall.ESRCH
