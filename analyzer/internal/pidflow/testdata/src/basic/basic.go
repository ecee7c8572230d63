package basic

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

func stop(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `signal syscall.Kill read from the file pidFile at basic.go:11`
}
