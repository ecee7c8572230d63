package signalstalebyname

//pidlint:file-ignore signal-unverified-pid the file is on a tmpfs that this supervisor alone writes

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

func reload(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return err
	}
	return syscall.Kill(pid, syscall.SIGHUP)
}
