// Package signalstalecmd holds PL007 shapes where the signal goes through
// a program: kill, pkill -F and taskkill run with exec.Command.
package signalstalecmd

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

func readPID(pidFile string) (string, error) {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(data)), nil
}

// The file's text straight to kill(1).
func stop(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pidStr := strings.TrimSpace(string(data))
	return exec.Command("kill", pidStr).Run() // want `PL007: exec.Command\("kill", …\) sends SIGTERM to a PID read from the file pidFile at commands\.go:23 that is never checked to be > 0: a file holding 0 signals the caller's own process group, -1 every process it may signal \(on every Unix\)`
}

// Parsed, checked, then formatted again: only reuse is left.
func kill9(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return err
	}
	return exec.CommandContext(context.Background(), "/bin/kill", "-9", strconv.Itoa(pid)).Run() // want `PL007: exec.Command\("/bin/kill", …\) sends -9 to a PID read from the file pidFile at commands\.go:33 without checking that it still names the process that wrote it: after a crash, a reboot or PID reuse it is an unrelated process \(on every Unix\)`
}

// kill -s NAME.
func killNamed(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	return exec.Command("kill", "-s", "hup", strings.TrimSpace(string(data))).Run() // want `PL007: exec.Command\("kill", …\) sends SIGHUP to a PID read from the file pidFile at commands\.go:46 that is never checked`
}

// pkill reads the PID file itself.
func pkillFile(pidFile string) error {
	return exec.Command("pkill", "-HUP", "-F", pidFile).Run() // want `PL007: exec.Command\("pkill", …\) sends -HUP to a PID read by pkill \-F from the file pidFile without checking that it still names the process`
}

// Not reported: a child's own PID.
func stopChild(cmd *exec.Cmd) error {
	return exec.Command("kill", "-TERM", strconv.Itoa(cmd.Process.Pid)).Run()
}

// Not reported: pkill -L checks that the file is locked by a live holder.
func pkillLocked(pidFile string) error {
	return exec.Command("pkill", "-L", "-F", pidFile).Run()
}

// Not reported: pkill with a name pattern, taskkill with an image name.
func byName(name string) error {
	if err := exec.Command("pkill", name).Run(); err != nil {
		return err
	}
	return exec.Command("taskkill", "/IM", name).Run()
}

// kill -0 is a probe: PL005's finding, not PL007's.
func probe(pidFile string) bool {
	pid, err := readPID(pidFile)
	return err == nil && exec.Command("kill", "-0", pid).Run() == nil // want `PL005: exec of kill -0`
}
