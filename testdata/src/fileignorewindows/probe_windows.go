package fileignorewindows

import (
	"os"
	"strconv"
	"syscall"
)

func windowsAlive(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil
}

func procAlive(pid int) bool {
	//pidlint:ignore PL004 this branch is never taken on windows; the caller checks runtime.GOOS
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

func unguarded(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid)) // want `PL004`
	return err == nil
}

//pidlint:file-ignore PL002 the process is our own child; Signal(0) is compared with safeprobe in a test
