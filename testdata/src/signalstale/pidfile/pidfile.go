package pidfile // want package:"has wrappers"

// Package pidfile is a small library: Read in one package, the signal in
// another.

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Read returns the PID the file holds.
func Read(path string) (int, error) { // want Read:"stored pid\\(result=0, checked=true\\)"
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err == nil && pid < 1 {
		err = strconv.ErrRange
	}
	return pid, err
}

// Terminate sends SIGTERM.
func Terminate(pid int) error { // want Terminate:"signals pid\\(pid=0, sig=-1, checked=false\\)"
	return syscall.Kill(pid, syscall.SIGTERM)
}

// Send sends sig.
func Send(pid int, sig os.Signal) error { // want Send:"signal wrapper\\(sig=1, pid=0, error\\)" Send:"signals pid\\(pid=0, sig=1, checked=false\\)"
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}
