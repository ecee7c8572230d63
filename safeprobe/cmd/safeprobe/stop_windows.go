package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/pidlint/pidlint/safeprobe"
)

// ctrlBreak is stop's gentle signal on Windows: a console Ctrl+Break to
// the command safeprobe run started.
type ctrlBreak struct{}

func (ctrlBreak) Signal()        {}
func (ctrlBreak) String() string { return "CTRL_BREAK_EVENT" }

// parseStopSignal reads -signal: KILL (TerminateProcess) or one of the
// names a Unix script passes for a gentle stop, all sent as Ctrl+Break,
// the one console event that can be sent to one process group.
func parseStopSignal(s string) (os.Signal, error) {
	switch strings.TrimPrefix(strings.ToUpper(s), "SIG") {
	case "KILL", "9":
		return os.Kill, nil
	case "TERM", "15", "INT", "2", "BREAK", "CTRL_BREAK", "CTRL_BREAK_EVENT":
		return ctrlBreak{}, nil
	}
	return nil, fmt.Errorf("-signal %s: on windows, want BREAK (also TERM or INT: a console Ctrl+Break) or KILL (TerminateProcess)", s)
}

func signalName(sig os.Signal) string {
	if sig == os.Kill {
		return "TerminateProcess"
	}
	return sig.String()
}

// signalOwner terminates the lock's holder (os.Kill), or sends a console
// Ctrl+Break to the command it runs, once it is verified as SignalOwner
// verifies it and is still owner.
func signalOwner(path string, owner safeprobe.Identity, sig os.Signal) error {
	opts := &safeprobe.SignalOptions{Owner: &owner}
	if sig == os.Kill {
		return safeprobe.SignalOwnerWith(path, os.Kill, opts)
	}
	return safeprobe.WithOwnerProcess(path, opts, func(p *os.Process) error {
		return breakRunChild(p.Pid, owner.StartTime)
	})
}
