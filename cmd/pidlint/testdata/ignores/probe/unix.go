//go:build unix

package probe

//pidlint:file-ignore PL001

import "syscall"

func alive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
