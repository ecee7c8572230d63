// Package signalstaleignore suppresses a PL007 finding with a directive.
package signalstaleignore

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
	if err != nil || pid <= 0 {
		return err
	}
	//pidlint:ignore PL007 the file is on a tmpfs that this supervisor alone writes
	return syscall.Kill(pid, syscall.SIGTERM)
}
