// Package procstat holds /proc/<pid> existence shapes for PL004.
package procstat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

func alive(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid)) // want `PL004: /proc/<pid> is not there on darwin, dragonfly, freebsd, js, netbsd, openbsd, wasip1 and windows \(where this code builds\): every process reads as dead; on linux it exists for zombies and thread IDs; use safeprobe.Alive`
	return err == nil
}

func aliveConcat(pid int) bool {
	if _, err := os.Lstat("/proc/" + strconv.Itoa(pid)); err != nil { // want `PL004: /proc/<pid> is not there`
		return false
	}
	return true
}

func aliveJoin(pidStr string) bool {
	_, err := os.Stat(filepath.Join("/proc", pidStr)) // want `PL004`
	return !os.IsNotExist(err)
}

func aliveVar(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	_, err := os.Stat(dir) // want `PL004`
	return !errors.Is(err, fs.ErrNotExist)
}

// Reading a process's files is not a liveness test.

func cmdline(pid int) ([]byte, error) {
	return os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
}

func status(pid int) (os.FileInfo, error) {
	return os.Stat(fmt.Sprintf("/proc/%d/status", pid))
}

func self() bool {
	_, err := os.Stat("/proc/self")
	return err == nil
}

func fds(pid int) ([]os.DirEntry, error) {
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d", pid))
	return entries, err
}
