// Package signalstalefix is a daemon that holds a safeprobe lock but whose
// stop command still reads the PID itself: PL007's fix signals the
// verified holder instead.
package signalstalefix

import (
	"errors"
	"log"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/pidlint/pidlint/safeprobe"
)

const lockPath = "/run/mydaemon.pid"

func run() error {
	lock, err := safeprobe.TryAcquire(lockPath, nil)
	if err != nil {
		return err
	}
	defer lock.Release()
	return nil
}

func badStop() error {
	data, err := os.ReadFile(lockPath)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.SplitN(string(data), "\n", 2)[0])
	if err != nil || pid <= 0 {
		return errors.New("bad lock file")
	}
	log.Printf("stopping %d", pid)
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file lockPath at stop\.go:29 and parsed with no upper bound: 4294967295 \(any number from 2\^31 up\) passes the > 0 check and reaches kill\(2\) as a 32-bit pid_t, where 4294967295 is -1`
}

func badForceStop() error {
	data, err := os.ReadFile(lockPath)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.SplitN(string(data), "\n", 2)[0])
	if err != nil || pid <= 0 {
		return errors.New("bad lock file")
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	log.Printf("killing %d", p.Pid)
	return p.Kill() // want `PL007: Process.Kill sends a kill to a PID read from the file lockPath at stop\.go:42 without checking`
}

// The record's PID from safeprobe.Inspect, without asking whether the lock
// is held.
func badReload(path string) error {
	st, err := safeprobe.Inspect(path)
	if err != nil {
		return err
	}
	if st.Record.PID == 0 {
		return errors.New("no owner")
	}
	return syscall.Kill(st.Record.PID, syscall.SIGHUP) // want `PL007: syscall.Kill sends syscall.SIGHUP to a PID read from the lock file path at stop\.go:61 without checking`
}

// No fix where it would leave pid unused (it would not compile).
func badQuietStop() error {
	data, err := os.ReadFile(lockPath)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.SplitN(string(data), "\n", 2)[0])
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file lockPath at stop\.go:73 that is never checked to be > 0`
}

// Held is checked: the owner's lock vouches for the record.
func goodReloadHeld(path string) error {
	st, err := safeprobe.Inspect(path)
	if err != nil || !st.Held {
		return errors.New("not running")
	}
	return syscall.Kill(st.Record.PID, syscall.SIGHUP)
}
