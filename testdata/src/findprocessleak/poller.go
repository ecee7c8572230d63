// Package findprocessleak polls processes with os.FindProcess in loops:
// -strict reports the ones that never release what FindProcess holds.
package findprocessleak

import (
	"os"
	"syscall"
	"time"
)

func watch(pids []int, done chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-time.After(time.Second):
		}
		for _, pid := range pids {
			p, err := os.FindProcess(pid) // want `PL003: os.FindProcess in a loop without Release: each call holds a pidfd or process handle on linux and windows \(where this code builds\)`
			if err != nil {
				continue
			}
			p.Signal(syscall.SIGINT)
		}
	}
}

func released(pids []int) {
	for _, pid := range pids {
		p, err := os.FindProcess(pid)
		if err != nil {
			continue
		}
		p.Signal(syscall.SIGHUP)
		p.Release()
	}
}

func waited(pids []int) {
	for _, pid := range pids {
		if p, err := os.FindProcess(pid); err == nil {
			p.Wait()
		}
	}
}

func handedOn(pids []int) []*os.Process {
	var ps []*os.Process
	for _, pid := range pids {
		p, _ := os.FindProcess(pid)
		ps = append(ps, p)
	}
	return ps
}

func once(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(syscall.SIGTERM)
}
