// Package guards: the PID-file guards the flow finds, each where its fix
// goes.
package guards

import (
	"errors"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"syscall"
)

var errRunning = errors.New("already running")

func write(f *os.File) { fmt.Fprintf(f, "%d\n", os.Getpid()) }

func noRecovery(pidFile string) error {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644) // want `guard exclusive-no-recovery`
	if err != nil {
		return errRunning
	}
	write(f)
	return f.Close()
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func blindRecovery(pidFile string) error {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if os.IsExist(err) {
		data, _ := os.ReadFile(pidFile)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		if alive(pid) { // want `guard exclusive-blind-recovery`
			return errRunning
		}
		os.Remove(pidFile)
		return blindRecovery(pidFile)
	}
	if err != nil {
		return err
	}
	write(f)
	return f.Close()
}

func exists(pidFile string) {
	if _, err := os.Stat(pidFile); err == nil { // want `guard existence`
		log.Fatal("pid file found")
	}
	f, _ := os.Create(pidFile)
	write(f)
}

func running(pidFile string) bool {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return false
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	p, _ := os.FindProcess(pid)
	return p.Signal(syscall.Signal(0)) == nil
}

func liveness(pidFile string) error {
	if running(pidFile) { // want `guard liveness`
		return fmt.Errorf("%s: %w", pidFile, errRunning)
	}
	f, _ := os.Create(pidFile)
	write(f)
	return f.Close()
}

// A probe whose "alive" answer starts nothing: a status command.
func status(pidFile string) string {
	if running(pidFile) {
		return "running"
	}
	return "stopped"
}
