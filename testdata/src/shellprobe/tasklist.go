package shellprobe

import (
	"os/exec"
	"strings"
)

func tasklistAnywhere(pid string) bool {
	out, err := exec.Command("tasklist.exe", "/FI", "PID eq 42", "/NH").Output() // want `PL005: exec of tasklist /FI "PID eq N" as a liveness test exits 0 whether or not the PID exists and costs a process per probe; the command is not there on any OS but windows \(where this code builds\)`
	return err == nil && strings.Contains(string(out), pid)
}
