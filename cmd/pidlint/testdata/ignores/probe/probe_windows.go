package probe

import (
	"os"
	"syscall"
)

//pidlint:file-ignore PL002 Signal(0) here is compared with safeprobe in a test

func running(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil
}
