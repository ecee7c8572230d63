package shellprobe

import (
	"os/exec"
	"strings"
)

func tasklistPID(pid string) bool {
	out, err := exec.Command("tasklist", "/FI", "PID eq "+pid).Output()
	return err == nil && strings.Contains(string(out), pid)
}
