// Package signalstale holds labelled shapes for PL007: functions named
// bad* send a real signal to a PID read from storage, unverified; good*
// ones are correct look-alikes.
package signalstale

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/ioutil"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/pidlint/pidlint/safeprobe"
)

// A CLI's "stop": the PID file's content straight to kill(2).
func badStopCommand(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return fmt.Errorf("%s: %v", pidFile, err)
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file pidFile at stop\.go:25 that is never checked to be > 0: a file holding 0 signals the caller's own process group, -1 every process it may signal`
}

// The same with the PID range checked: only reuse is left.
func badStopChecked(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return fmt.Errorf("%s: bad pid", pidFile)
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file pidFile at stop\.go:38 and parsed with no upper bound: 4294967295 \(any number from 2\^31 up\) passes the > 0 check and reaches kill\(2\) as a 32-bit pid_t, where 4294967295 is -1, every process the caller may signal \(on every Unix\); and any other number may by now be an unrelated process; parse it with safeprobe.ParsePID or check it with safeprobe.ValidatePID \(both refuse anything outside 1..2147483647\), then verify it`
}

// bufio over the opened file, then os.FindProcess (no check: it opens
// whoever has the number now).
func badScannerSignal(pidFile string) error {
	f, err := os.Open(pidFile)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return fmt.Errorf("%s: empty", pidFile)
	}
	pid, err := strconv.Atoi(sc.Text())
	if err != nil || pid < 1 {
		return fmt.Errorf("%s: bad pid", pidFile)
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(syscall.SIGTERM) // want `PL007: Process.Signal sends syscall.SIGTERM to a PID read from the file pidFile at stop\.go:52 without checking`
}

// fmt.Fscan into the PID, then Process.Kill (TerminateProcess on Windows).
func badFscanKill(pidFile string) error {
	f, err := os.Open(pidFile)
	if err != nil {
		return err
	}
	defer f.Close()
	var pid int
	if _, err := fmt.Fscan(f, &pid); err != nil {
		return err
	}
	p, _ := os.FindProcess(pid)
	return p.Kill() // want `PL007: Process.Kill sends a kill to a PID read from the file pidFile at stop\.go:74 that is never checked to be > 0: a negative number signals a whole process group`
}

type state struct {
	PID  int    `json:"pid"`
	Addr string `json:"addr"`
}

// A JSON state file of a supervisor.
func badJSONState(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		return err
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	return syscall.Kill(st.PID, syscall.SIGKILL) // want `PL007: syscall.Kill sends syscall.SIGKILL to a PID from field state\.PID decoded from the file filepath\.Join\(dir, "state\.json"\) at stop\.go:99 that is never checked`
}

// A JSON decoder over the opened file.
func badJSONDecoder(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var st state
	if err := json.NewDecoder(f).Decode(&st); err != nil {
		return err
	}
	if st.PID == 0 {
		return nil
	}
	p, err := os.FindProcess(st.PID)
	if err != nil {
		return err
	}
	return p.Signal(os.Interrupt) // want `PL007: Process.Signal sends os.Interrupt to a PID from field state\.PID decoded from the file path at stop\.go:113 without checking`
}

// golang.org/x/sys/unix, with a process group from the file.
func badGroupKill(pgidFile string) error {
	data, err := ioutil.ReadFile(pgidFile)
	if err != nil {
		return err
	}
	pgid, err := strconv.Atoi(string(bytes.TrimSpace(data)))
	if err != nil || pgid <= 1 {
		return err
	}
	return unix.Kill(-pgid, unix.SIGKILL) // want `PL007: unix.Kill sends unix.SIGKILL to a PID read from the file pgidFile at stop\.go:128 without checking`
}

// fmt.Sscanf of the file's text.
func badSscanf(pidFile string) {
	data, _ := os.ReadFile(pidFile)
	var pid int
	fmt.Sscanf(string(data), "%d", &pid)
	syscall.Kill(pid, syscall.SIGHUP) // want `PL007: syscall.Kill sends syscall.SIGHUP to a PID read from the file pidFile at stop\.go:141 that is never checked`
}

// The first line of a multi-line PID file (PID, then the port).
func badFirstLine(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	pid, err := strconv.ParseInt(lines[0], 10, 32)
	if err != nil {
		return err
	}
	if pid <= 0 {
		return fmt.Errorf("bad pid %d", pid)
	}
	return syscall.Kill(int(pid), syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file pidFile at stop\.go:149 without checking`
}

// A "force" flag picks the signal.
func badSignalChosen(pidFile string, force bool) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, err := safeprobe.ParsePID(string(data))
	if err != nil {
		return err
	}
	sig := syscall.SIGTERM
	if force {
		sig = syscall.SIGKILL
	}
	return syscall.Kill(pid, sig) // want `PL007: syscall.Kill sends sig to a PID read from the file pidFile at stop\.go:166 without checking`
}

// A supervisor stops every worker listed in its run directory.
func badStopAll(runDir string) {
	entries, _ := os.ReadDir(runDir)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(runDir, e.Name()))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || pid <= 0 {
			continue
		}
		syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file filepath\.Join\(runDir, e\.Name\(\)\) at stop\.go:185 and parsed with no upper bound: 4294967295 \(any number from 2\^31 up\) passes the > 0 check and reaches kill\(2\) as a 32-bit pid_t, where 4294967295 is -1`
	}
}

// A bufio.Reader line.
func badReaderLine(pidFile string) error {
	f, err := os.Open(pidFile)
	if err != nil {
		return err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return err
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	return syscall.Kill(pid, syscall.SIGINT) // want `PL007: syscall.Kill sends syscall.SIGINT to a PID read from the file pidFile at stop\.go:199 that is never checked`
}
