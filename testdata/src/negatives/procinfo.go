package negatives

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// procStartTime reads /proc/<pid>'s metadata; passing the error on is not
// a liveness verdict.
func procStartTime(pid int) (time.Time, error) {
	fi, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

// procfsMounted asks about /proc itself, through this process's entry.
func procfsMounted() bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(os.Getpid()))
	return err == nil
}

// children lists the children of ppid: pgrep as a lister, not a probe.
func children(ppid int) ([]byte, error) {
	return exec.Command("pgrep", "-P", strconv.Itoa(ppid)).Output()
}

// isPerm is this package's own test for EPERM.
func isPerm(err error) bool { return errors.Is(err, syscall.EPERM) }

func aliveViaHelper(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || isPerm(err)
}

// signalGuarded keeps Signal(0) off Windows through a local flag.
func signalGuarded(p *os.Process) bool {
	isWindows := runtime.GOOS == "windows"
	if isWindows {
		return true
	}
	err := p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
