package procutil // want package:"has wrappers"

// procutil holds kill and Signal wrappers, as supervisors write them; its
// importers call them with signal 0.

import (
	"os"
	"syscall"
)

// Kill sends sig to pid.
func Kill(pid int, sig syscall.Signal) error { // want Kill:"kill wrapper\\(sig=1, pid=0, error\\)" Kill:"pid flow\\(signals param 0 sig=1; flags 0x0\\)"
	return syscall.Kill(pid, sig)
}

// Signal finds the process and signals it.
func Signal(pid int, sig os.Signal) error { // want Signal:"signal wrapper\\(sig=1, pid=0, error\\)" Signal:"pid flow\\(answer result 0<-param 0 checked=false; signals param 0 sig=1; flags 0x0\\)"
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}

// Exists probes through Kill: a wrapper of a wrapper.
func Exists(pid int) error { // want Exists:"kill wrapper\\(sig=-1, pid=0, error\\)"
	return Kill(pid, 0)
}

// CanSignal answers with a bool: the verdict is made here.
func CanSignal(pid int, sig syscall.Signal) bool { // want CanSignal:"kill wrapper\\(sig=1, pid=0, bool\\)" CanSignal:"pid flow\\(signals param 0 sig=1; flags 0x0\\)"
	return syscall.Kill(pid, sig) == nil
}

// Stop is not a wrapper: its signal is fixed.
func Stop(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) } // want Stop:"pid flow\\(signals param 0 sig=-1; flags 0x0\\)"

// Handled is not a wrapper: it tells EPERM apart before answering.
func Handled(pid int, sig syscall.Signal) error { // want Handled:"pid flow\\(signals param 0 sig=1; flags 0x0\\)"
	err := syscall.Kill(pid, sig)
	if err == syscall.EPERM {
		return nil
	}
	return err
}
