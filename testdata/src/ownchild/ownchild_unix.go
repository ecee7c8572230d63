//go:build unix

// Package ownchild holds Signal(0) probes of children the code started
// itself, for PL002: they read as alive until waited for.
package ownchild

import (
	"os"
	"os/exec"
	"syscall"
)

func running(cmd *exec.Cmd) bool {
	return cmd.Process.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) on a child this program started reads it as alive after it exits, until it is waited for \(a zombie answers the probe\) on every Unix \(where this code builds\); wait for it instead: a goroutine that calls Wait and records the exit$`
}

func started(path string) bool {
	p, err := os.StartProcess(path, []string{path}, &os.ProcAttr{})
	if err != nil {
		return false
	}
	if err := p.Signal(syscall.Signal(0)); err != nil { // want `PL002: Process.Signal\(0\) on a child this program started .*; wait for it instead`
		return false
	}
	return true
}

func startedCmd() bool {
	cmd := exec.Command("sleep", "1")
	if err := cmd.Start(); err != nil {
		return false
	}
	proc := cmd.Process
	return proc.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) on a child this program started`
}

// A field only ever set from a started child.
type supervisor struct {
	child *os.Process
	cmd   *exec.Cmd
}

func (s *supervisor) start() error {
	s.cmd = exec.Command("sleep", "1")
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.child = s.cmd.Process
	return nil
}

func (s *supervisor) alive() bool {
	return s.child.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) on a child this program started`
}

func (s *supervisor) cmdAlive() bool {
	return s.cmd.Process.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) on a child this program started`
}

// A field also set from FindProcess may hold any process: the ordinary
// finding, with its fix.
type tracker struct{ proc *os.Process }

func (t *tracker) adopt(pid int) { t.proc, _ = os.FindProcess(pid) }

func (t *tracker) launch(cmd *exec.Cmd) { t.proc = cmd.Process }

func (t *tracker) alive() bool {
	return t.proc.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM .*; use safeprobe.CheckProcess`
}

// A parameter may hold any process.
func alive(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM .*; use safeprobe.CheckProcess`
}

// A variable reassigned from FindProcess is not only the child.
func either(cmd *exec.Cmd, pid int) bool {
	p := cmd.Process
	if pid > 0 {
		p, _ = os.FindProcess(pid)
	}
	return p.Signal(syscall.Signal(0)) == nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM`
}
