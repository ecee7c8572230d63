//go:build unix

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/pidlint/pidlint/safeprobe"
	"golang.org/x/sys/unix"
)

// parseStopSignal reads -signal: a name with or without SIG (TERM,
// SIGHUP, usr1) or a number.
func parseStopSignal(s string) (os.Signal, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n <= 0 || unix.SignalName(syscall.Signal(n)) == "" {
			return nil, fmt.Errorf("-signal %s: no such signal (signal 0 sends nothing: safeprobe alive probes)", s)
		}
		return syscall.Signal(n), nil
	}
	name := strings.ToUpper(s)
	if !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	sig := unix.SignalNum(name)
	if sig == 0 {
		return nil, fmt.Errorf("-signal %s: no such signal (want a name such as TERM, HUP, INT, KILL, or a number)", s)
	}
	return sig, nil
}

// signalName names sig as kill -l does, with SIG: SIGTERM.
func signalName(sig os.Signal) string {
	if s, ok := sig.(syscall.Signal); ok {
		if name := unix.SignalName(s); name != "" {
			return name
		}
	}
	return sig.String()
}

// signalOwner sends sig to the lock's holder, if it is still owner and
// verified as SignalOwner verifies it.
func signalOwner(path string, owner safeprobe.Identity, sig os.Signal) error {
	return safeprobe.SignalOwnerWith(path, sig, &safeprobe.SignalOptions{Owner: &owner})
}
