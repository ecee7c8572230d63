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
func Read(path string) (int, error) { // want Read:"pid flow\\(pid result 0<-read checked=true; flags 0x0\\)"
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
func Terminate(pid int) error { // want Terminate:"pid flow\\(signals param 0 sig=-1; flags 0x0\\)"
	return syscall.Kill(pid, syscall.SIGTERM)
}

// Send sends sig.
func Send(pid int, sig os.Signal) error { // want Send:"signal wrapper\\(sig=1, pid=0, error\\)" Send:"pid flow\\(answer result 0<-param 0 checked=false; signals param 0 sig=1; flags 0x0\\)"
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}
