// Package monitor reads other daemons' PID files; it writes none of its
// own, so their files guard nothing of it.
package monitor

import (
	"errors"
	"os"
	"strconv"
	"strings"

	"github.com/pidlint/pidlint/safeprobe"
)

func goodMonitorRefuses(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if safeprobe.Alive(pid) {
		return errors.New("the daemon is up: refusing to repair its state")
	}
	return nil
}

func goodMonitorMarker(pidFile string) error {
	if _, err := os.Stat(pidFile); err == nil {
		return errors.New("daemon running: refusing maintenance")
	}
	f, err := os.OpenFile(pidFile+".maint", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return errors.New("maintenance already under way")
	}
	return f.Close()
}
