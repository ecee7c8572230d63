package signalstalecmd

import (
	"os"
	"os/exec"
	"strings"
)

// taskkill /PID with a stored PID: windows.
func taskkill(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid := strings.TrimSpace(string(data))
	return exec.Command("taskkill", "/PID", pid, "/F").Run() // want `PL007: exec.Command\("taskkill", …\) sends a forced termination \(/F\) to a PID read from the file pidFile at taskkill\.go:11 without checking that it still names the process that wrote it: after a crash, a reboot or PID reuse it is an unrelated process \(on windows\)`
}
