//go:build go1.23

// Package findprocessleak polls processes with os.FindProcess in loops:
// PL003 reports the ones that never release what FindProcess holds. The
// files' go1.23 constraint stands for a module's go line: from Go 1.23 on,
// FindProcess holds a pidfd on Linux.
package findprocessleak

import (
	"errors"
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
			p, err := os.FindProcess(pid) // want `PL003: os.FindProcess without Release: on linux and windows \(where this code builds\) each call holds a pidfd \(a process handle on windows\) until Release or garbage collection, so a poller runs out of file descriptors; call Release on the Process when done with it$`
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

// A helper called from a poll loop leaks as the loop does.
func alive(pid int) bool {
	p, err := os.FindProcess(pid) // want `PL003: os.FindProcess without Release \(called in a loop at line \d+\): on linux and windows`
	if err != nil {
		return false
	}
	return !errors.Is(p.Signal(syscall.SIGINT), os.ErrProcessDone)
}

func poll(pids []int) (n int) {
	for _, pid := range pids {
		if alive(pid) {
			n++
		}
	}
	return n
}

// A helper that releases does not.
func aliveReleased(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	return !errors.Is(p.Signal(syscall.SIGINT), os.ErrProcessDone)
}

func pollReleased(pids []int) (n int) {
	for _, pid := range pids {
		if aliveReleased(pid) {
			n++
		}
	}
	return n
}

// Only the PID is kept: the Process is dropped, its descriptor held.
func signalAll(pids []int) (sent []int) {
	for _, pid := range pids {
		p, _ := os.FindProcess(pid) // want `PL003: os.FindProcess without Release: on linux and windows`
		if p.Signal(syscall.SIGHUP) == nil {
			sent = append(sent, p.Pid)
		}
	}
	return sent
}

// A goroutine's loop is a loop.
func watchAsync(pid int, stop chan struct{}) {
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			p, _ := os.FindProcess(pid) // want `PL003: os.FindProcess without Release: on linux and windows`
			p.Signal(syscall.SIGINT)
		}
	}()
}
