// Package negatives holds correct liveness code that no rule reports.
package negatives

import (
	"errors"
	"os"
	"os/exec"
	"syscall"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

func gopsutil(pid int32) bool {
	ok, err := process.PidExists(pid)
	return err == nil && ok
}

func pidfd(pid int) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return false
	}
	return unix.PidfdSendSignal(fd, 0, nil, 0) == nil
}

func waitChild(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Wait()
}

func terminate(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	if err := p.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	_, err = p.Wait()
	return err
}

func killGroup(pgid int) error { return syscall.Kill(-pgid, syscall.SIGKILL) }

func readProc(pid int) ([]byte, error) { return os.ReadFile("/proc/self/status") }
