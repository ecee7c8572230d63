package signalstale

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A test stops the daemon it started through the PID file the daemon
// wrote: only -strict reports it.
func goodHarness(t *testing.T, pidFile string) {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	syscall.Kill(pid, syscall.SIGTERM)
}
