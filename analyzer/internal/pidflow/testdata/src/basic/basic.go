// Package basic: a stored PID followed through copies, phis, channels,
// closures and method values; own children and the own PID are not
// stored.
package basic

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

func read(pidFile string) int {
	data, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

func stop(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `signal syscall.Kill read from the file pidFile at basic.go:21`
}

func phi(pidFile string, child *exec.Cmd) {
	pid := child.Process.Pid
	if child.ProcessState != nil {
		pid = read(pidFile)
	}
	syscall.Kill(pid, syscall.SIGTERM) // want `signal syscall.Kill read from the file pidFile at basic.go:15`
}

func channel(pidFile string) {
	ch := make(chan int, 1)
	go func() { ch <- read(pidFile) }()
	syscall.Kill(<-ch, syscall.SIGTERM) // want `signal syscall.Kill read from the file pidFile at basic.go:15`
}

func closure(pidFile string) func() error {
	pid := read(pidFile)
	return func() error {
		p, _ := os.FindProcess(pid)
		kill := p.Kill
		return kill() // want `signal Process.Kill read from the file pidFile at basic.go:15`
	}
}

func ownChild(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	return syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
}

func self() error { return syscall.Kill(os.Getpid(), syscall.SIGHUP) }

func kernelList() {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		data, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		pid, _ := strconv.Atoi(strings.Fields(string(data))[0])
		syscall.Kill(pid, syscall.SIGTERM)
	}
}
