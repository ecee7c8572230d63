// Package signalstalebyname suppresses PL007 findings with directives
// that name the rule: a run that disables the rule still computes it, so
// that the directives find what they suppress.
package signalstalebyname

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
	//pidlint:ignore signal-unverified-pid the file is on a tmpfs that this supervisor alone writes
	return syscall.Kill(pid, syscall.SIGTERM)
}
