package signalzero

import (
	"errors"
	"os"
	"runtime"
	"syscall"
)

// runtime.GOOS tests narrow where the code runs.

func guardedElse(p *os.Process) bool {
	if runtime.GOOS == "windows" {
		return true
	} else {
		return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
	}
}

func guardedEarlyReturn(p *os.Process) bool {
	if runtime.GOOS == "windows" {
		panic("unsupported")
	}
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

func guardedSwitch(p *os.Process) bool {
	switch runtime.GOOS {
	case "windows", "plan9":
		return false
	default:
		return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
	}
}

func guardedLinux(p *os.Process) bool {
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test .* on darwin and linux \(where this code builds\)`
	}
	return false
}

func unguarded(p *os.Process) bool {
	if runtime.GOOS != "linux" {
		return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) always fails on windows`
	}
	return false
}
