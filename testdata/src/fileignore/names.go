package fileignore

//pidlint:file-ignore signal-zero,proc-stat the probes of this file are compared with safeprobe's

import (
	"os"
	"strconv"
	"syscall"
)

func signalledHere(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil
}

func procHere(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// Only the rules named are suppressed.
func killedHere(pid int) bool {
	return syscall.Kill(pid, 0) == nil // want `PL001`
}
