// Package shellprobe holds shelled-out probes for PL005.
package shellprobe

import (
	"bytes"
	"context"
	"os/exec"
	"strconv"
)

func killZero(pid int) bool {
	err := exec.Command("kill", "-0", strconv.Itoa(pid)).Run() // want `PL005: exec of kill -0 as a liveness test has kill\(2\)'s flaws: EPERM reads as dead, a zombie as alive and costs a process per probe; the command is not there on js, plan9, wasip1 and windows \(where this code builds\), so every process reads as dead; use safeprobe.Alive`
	return err == nil
}

func psP(ctx context.Context, pid int) bool {
	cmd := exec.CommandContext(ctx, "ps", "-p", strconv.Itoa(pid)) // want `PL005: exec of ps -p`
	return cmd.Run() == nil
}

func viaShell(pid string) bool {
	out, err := exec.Command("/bin/sh", "-c", "kill -0 "+pid+" && echo yes").Output() // want `PL005: exec of kill -0`
	return err == nil && bytes.Contains(out, []byte("yes"))
}

func pgrepName(name string) bool {
	return exec.Command("pgrep", "-x", name).Run() == nil // want `PL005: exec of pgrep`
}

func lsofExit(pid int) bool {
	return exec.Command("lsof", "-p", strconv.Itoa(pid)).Run() == nil // want `PL005: exec of lsof -p`
}

// Not probes.

func command(pid int) ([]byte, error) {
	return exec.Command("ps", "-p", strconv.Itoa(pid), "-o", "comm=").Output()
}

func openFiles(pid int) ([]byte, error) {
	return exec.Command("lsof", "-p", strconv.Itoa(pid)).Output()
}

func stop(pid int) error {
	return exec.Command("kill", "-TERM", strconv.Itoa(pid)).Run()
}

func notRun(pid int) *exec.Cmd {
	return exec.Command("kill", "-0", strconv.Itoa(pid))
}
