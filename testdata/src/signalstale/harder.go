package signalstale

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"gopkg.in/yaml.v3"
)

// A YAML state file.
func badYAMLState(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var st struct {
		Pid int `yaml:"pid"`
	}
	if err := yaml.Unmarshal(data, &st); err != nil {
		return err
	}
	return syscall.Kill(st.Pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID from field Pid decoded from the file path at harder\.go:24 that is never checked`
}

// A package-level PID loaded at start-up.
var previousPID int

func loadPrevious(path string) {
	data, _ := os.ReadFile(path)
	previousPID, _ = strconv.Atoi(strings.TrimSpace(string(data)))
}

func badKillPrevious() {
	if previousPID > 0 {
		syscall.Kill(previousPID, syscall.SIGKILL) // want `PL007: syscall.Kill sends syscall.SIGKILL to a PID read from the file path at harder\.go:34 and parsed with no upper bound: 4294967295 \(any number from 2\^31 up\) passes the > 0 check and reaches kill\(2\) as a 32-bit pid_t, where 4294967295 is -1`
	}
}

// kill(1) run as a command.
func badShellKill(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	return exec.Command("kill", "-TERM", strings.TrimSpace(string(data))).Run() // want `PL007: exec.Command\("kill", …\) sends -TERM to a PID read from the file pidFile at harder\.go:46 that is never checked to be > 0`
}

// The PID travels through a channel.
func badThroughChannel(pidFile string) {
	pids := make(chan int, 1)
	go func() {
		data, _ := os.ReadFile(pidFile)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		pids <- pid
	}()
	syscall.Kill(<-pids, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file pidFile at harder\.go:57 that is never checked`
}

// A field that holds a child's PID or, after "attach", the file's: once
// attached, the stop signals whatever has the file's number now.
type attached struct{ pid int }

func (a *attached) start(cmd *exec.Cmd) { a.pid = cmd.Process.Pid }

func (a *attached) attach(pidFile string) {
	data, _ := os.ReadFile(pidFile)
	a.pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
}

func (a *attached) badStop() error {
	return syscall.Kill(a.pid, syscall.SIGTERM) // not reported: a PID assigned to a field is not followed into other functions (docs/recall.md)
}

// A helper of the package's own checks the executable.
func isOurDaemon(pid int) bool {
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	return err == nil && strings.HasSuffix(exe, "/mydaemon")
}

func goodVerifiedByHelper(pidFile string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	if !isOurDaemon(pid) {
		return errors.New("pid file names another program")
	}
	return syscall.Kill(pid, syscall.SIGTERM)
}

// A PID file of a child this code started a moment ago, in the same run:
// it still reads from storage, so it is reported only if the child was
// not started here; here the PID comes from the child itself.
func goodChildPIDFileWritten(cmd *exec.Cmd, pidFile string) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		return err
	}
	return cmd.Process.Signal(syscall.SIGHUP)
}
