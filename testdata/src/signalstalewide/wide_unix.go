//go:build unix

// Package signalstalewide holds PL007 shapes where a PID parsed wider than
// kill(2)'s 32-bit pid_t passes a "> 0" check.
package signalstalewide

import (
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/pidlint/pidlint/safeprobe"
)

func atoi(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := strings.TrimSpace(string(data))
	pid, err := strconv.Atoi(s)
	if err != nil || pid <= 0 {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at wide_unix\.go:18 and parsed with no upper bound: 4294967295 .* as a 32-bit pid_t, where 4294967295 is -1, every process the caller may signal \(on every Unix\); .*parse it with safeprobe.ParsePID or check it with safeprobe.ValidatePID`
}

func parseInt64(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := strings.TrimSpace(string(data))
	pid64, err := strconv.ParseInt(s, 10, 64)
	if err != nil || pid64 < 1 {
		return err
	}
	return syscall.Kill(int(pid64), syscall.SIGHUP) // want `PL007: syscall.Kill sends syscall.SIGHUP to a PID read from the file path at wide_unix\.go:31 and parsed with no upper bound`
}

// Bounded: the ordinary finding (reuse) only.
func bounded(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := strings.TrimSpace(string(data))
	pid, err := strconv.Atoi(s)
	if err != nil || pid <= 0 || pid > math.MaxInt32 {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at wide_unix\.go:45 without checking that it still names the process`
}

// ParseInt with 32 bits refuses 4294967295.
func parseInt32(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := strings.TrimSpace(string(data))
	pid, err := strconv.ParseInt(s, 10, 32)
	if err != nil || pid <= 0 {
		return err
	}
	return syscall.Kill(int(pid), syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at wide_unix\.go:59 without checking that it still names the process`
}

// ValidatePID refuses it too.
func validated(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := strings.TrimSpace(string(data))
	pid, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	if err := safeprobe.ValidatePID(pid); err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at wide_unix\.go:73 without checking that it still names the process`
}

// A negated group ID truncates to something else than -1: the ordinary
// finding.
func group(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := strings.TrimSpace(string(data))
	pgid, err := strconv.Atoi(s)
	if err != nil || pgid <= 1 {
		return err
	}
	return syscall.Kill(-pgid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at wide_unix\.go:91 without checking that it still names the process`
}
