package signalstale

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// readPID is the usual helper: the stop command is elsewhere.
func readPID(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(data)))
}

// readCheckedPID refuses 0 and negatives.
func readCheckedPID(path string) (int, error) {
	pid, err := readPID(path)
	if err != nil {
		return 0, err
	}
	if pid <= 0 {
		return 0, errors.New("bad pid")
	}
	return pid, nil
}

func badStopViaHelper(path string) error {
	pid, err := readPID(path)
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at helpers\.go:14 that is never checked`
}

func badStopViaCheckedHelper(path string) error {
	pid, err := readCheckedPID(path)
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at helpers\.go:14 and parsed with no upper bound`
}

// signalPID is a small wrapper with a fixed signal.
func signalPID(pid int) error {
	return syscall.Kill(pid, syscall.SIGHUP)
}

// killPID passes its signal on.
func killPID(pid int, sig syscall.Signal) error { // want killPID:"signal wrapper\\(sig=1, pid=0, error\\)"
	if pid <= 0 {
		return errors.New("bad pid")
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}

func badReloadViaWrapper(path string) error {
	pid, err := readPID(path)
	if err != nil {
		return err
	}
	return signalPID(pid) // want `PL007: signalPID \(syscall.Kill\) sends syscall.SIGHUP to a PID read from the file path at helpers\.go:14 that is never checked`
}

func badStopViaSignalParam(path string) error {
	pid, err := readPID(path)
	if err != nil {
		return err
	}
	return killPID(pid, syscall.SIGTERM) // want `PL007: killPID \(Process.Signal\) sends syscall.SIGTERM to a PID read from the file path at helpers\.go:14 without checking`
}

// A daemon handle whose PID field is only ever loaded from the PID file.
type daemon struct {
	pidFile string
	pid     int
}

func (d *daemon) load() error {
	pid, err := readCheckedPID(d.pidFile)
	if err != nil {
		return err
	}
	d.pid = pid
	return nil
}

func (d *daemon) badStop() error {
	return syscall.Kill(d.pid, syscall.SIGTERM) // not reported: a PID assigned to a field is not followed into other functions (docs/recall.md)
}

type record struct {
	Pid  int    `json:"pid"`
	Sock string `json:"sock"`
}

// loadRecord returns the decoded state file.
func loadRecord(path string) (*record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rec := new(record)
	return rec, json.Unmarshal(data, rec)
}

func badStopRecord(path string) error {
	rec, err := loadRecord(path)
	if err != nil {
		return err
	}
	p, err := os.FindProcess(rec.Pid)
	if err != nil {
		return err
	}
	return p.Kill() // want `PL007: Process.Kill sends a kill to a PID from field record\.Pid decoded from the file path at helpers\.go:113 that is never checked`
}

// A restart: stop the old instance, then the caller starts a new one.
func badRestart(path string) error {
	pid, err := readCheckedPID(path)
	if err != nil {
		return err
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil { // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at helpers\.go:14 and parsed with no upper bound`
		return err
	}
	return os.Remove(path)
}
