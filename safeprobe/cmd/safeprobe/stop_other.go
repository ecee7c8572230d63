//go:build !unix && !windows

package main

import (
	"fmt"
	"os"

	"github.com/pidlint/pidlint/safeprobe"
)

// This OS has no file locks safeprobe takes, so no holder to stop: lock
// operations fail with ErrUnsupported before a signal is chosen.

func parseStopSignal(s string) (os.Signal, error) {
	if s == "KILL" || s == "SIGKILL" {
		return os.Kill, nil
	}
	return os.Interrupt, nil
}

func signalName(sig os.Signal) string { return sig.String() }

func signalOwner(path string, owner safeprobe.Identity, sig os.Signal) error {
	return fmt.Errorf("safeprobe: signal %s: %w", path, safeprobe.ErrUnsupported)
}
