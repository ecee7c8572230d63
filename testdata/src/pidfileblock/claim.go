package pidfileblock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/process"
)

// claim creates the PID file exclusively; its callers recover a stale one.
func claim(pidFile string) error {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "%d\n", os.Getpid())
	return err
}

// readClaimed returns the PID a claimed file holds.
func readClaimed(pidFile string) int {
	data, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

// The stale check is in the caller: gopsutil's PidExists, then remove and
// retry. The report stands on the probe, where the fix goes.
func badClaimCheckedInCaller(pidFile string) error {
	for range 2 {
		err := claim(pidFile)
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		if alive, err := process.PidExists(int32(readClaimed(pidFile))); err == nil && alive { // want `PL008: the PID file created with O_EXCL at claim\.go:16 is recovered only when this probe`
			return errRunning
		}
		os.Remove(pidFile)
	}
	return errRunning
}

// The creation time recorded beside the PID is compared: a reused number
// is told apart, and the file recovered.
func goodClaimIdentityInCaller(pidFile string, recorded int64) error {
	err := claimStamped(pidFile)
	if !errors.Is(err, fs.ErrExist) {
		return err
	}
	p, err := process.NewProcess(int32(readClaimed(pidFile)))
	if err == nil {
		if t, err := p.CreateTime(); err == nil && t == recorded {
			return errRunning
		}
	}
	os.Remove(pidFile)
	return claimStamped(pidFile)
}

// claimStamped is claim for goodClaimIdentityInCaller.
func claimStamped(pidFile string) error {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "%d\n", os.Getpid())
	return err
}
