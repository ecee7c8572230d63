package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/pidlint/pidlint/safeprobe"
)

// Exit codes of stop.
const (
	stopStopped    = 0
	stopNotRunning = 1
	stopStillHeld  = 3
	stopRefused    = 4
)

// errNoGentleStop is wrapped by signalOwner's error where the first
// signal cannot be sent to the holder without reaching others (Windows: a
// holder that is not safeprobe run); -kill then goes straight to KILL.
var errNoGentleStop = errors.New("no gentle stop for this holder")

// killWait is how long stop -kill waits for the release after SIGKILL,
// which a holder cannot delay (on Windows the OS may take a moment).
const killWait = 5 * time.Second

// stopJSON is stop -json's output.
type stopJSON struct {
	Path    string      `json:"path"`
	Result  string      `json:"result"` // stopped, not running, still held, refused
	Code    int         `json:"code"`
	Holder  *recordJSON `json:"holder,omitempty"`
	Signals []string    `json:"signals,omitempty"` // sent, in order
	Waited  float64     `json:"waited_seconds"`
	Message string      `json:"message"`
}

// stopRequest is stop's command line.
type stopRequest struct {
	path    string
	sig     os.Signal
	timeout time.Duration
	kill    bool
}

func runStop(args []string, stdout, stderr io.Writer) int {
	fs := flagSet("stop")
	sigName := fs.String("signal", "TERM", "")
	timeout := fs.Duration("timeout", 10*time.Second, "")
	kill := fs.Bool("kill", false, "")
	asJSON := fs.Bool("json", false, "")
	operand, code := parseOne("stop", "lock file", fs, args, stdout, stderr)
	if code >= 0 {
		return code
	}
	sig, err := parseStopSignal(*sigName)
	if err != nil {
		return usageError(stderr, "stop", err)
	}
	if *timeout <= 0 {
		return usageError(stderr, "stop", fmt.Errorf("-timeout %v: want a duration above zero", *timeout))
	}
	out := stopLock(stopRequest{path: operand, sig: sig, timeout: *timeout, kill: *kill})
	if *asJSON {
		return printJSON(stdout, stderr, out, out.Code, stopRefused)
	}
	w := stdout
	if out.Code >= stopStillHeld {
		w = stderr
	}
	fmt.Fprintf(w, "%s: %s\n", out.Result, out.Message)
	return out.Code
}

// stopLock stops the holder of the lock r names, as stop's help says.
func stopLock(r stopRequest) stopJSON {
	out := stopJSON{Path: r.path}
	start := time.Now()
	set := func(code int, result, format string, a ...any) stopJSON {
		out.Code, out.Result, out.Message = code, result, fmt.Sprintf(format, a...)
		out.Waited = time.Since(start).Seconds()
		return out
	}
	status, st := lockStatus(r.path)
	out.Holder = status.Holder
	switch status.Code {
	case statusNotRunning, statusDead:
		return set(stopNotRunning, "not running", "%s; nothing signalled", status.Message)
	case statusUnknown:
		return set(stopRefused, "refused", "%s; nothing signalled", status.Message)
	}
	if !st.Record.HasIdentity {
		return set(stopRefused, "refused", "%s names pid %d without its start time: the PID may have been reused; nothing signalled",
			r.path, st.Record.PID)
	}
	owner := st.Record.Identity
	send := func(sig os.Signal) (done bool, err error) {
		err = signalOwner(r.path, owner, sig)
		if errors.Is(err, safeprobe.ErrNotHeld) && !released(r.path, owner) {
			// Still held by owner: the lock table was misread (see
			// inspect). Once more.
			err = signalOwner(r.path, owner, sig)
		}
		if err == nil {
			out.Signals = append(out.Signals, signalName(sig))
			return false, nil
		}
		if errors.Is(err, safeprobe.ErrNotHeld) && released(r.path, owner) {
			return true, nil // it let go of the lock before the signal
		}
		return false, err
	}
	stopped := func(how string) stopJSON {
		return set(stopStopped, "stopped", "pid %d released %s%s%s", owner.PID, r.path, how, removeLeft(r.path))
	}
	done, err := send(r.sig)
	switch {
	case done:
		return stopped(" before the signal")
	case err == nil:
		if waitRelease(r.path, owner, r.timeout) {
			return stopped("")
		}
		if !r.kill {
			return set(stopStillHeld, "still held", "%s still holds %s after %v%s", describe(st.Record), r.path, r.timeout, inherited(owner))
		}
	case errors.Is(err, errNoGentleStop) && r.kill:
		// Straight to KILL.
	default:
		return set(stopRefused, "refused", "%v", err)
	}
	done, err = send(os.Kill)
	switch {
	case err != nil:
		return set(stopRefused, "refused", "%v", err)
	case done:
		return stopped(" before " + signalName(os.Kill))
	case waitRelease(r.path, owner, killWait):
		return stopped(" after " + signalName(os.Kill))
	}
	return set(stopStillHeld, "still held", "%s still holds %s after %s%s", describe(st.Record), r.path, signalName(os.Kill), inherited(owner))
}

// removeLeft removes the lock file a stopped holder left (one exec'd by
// safeprobe run cannot remove it), as Release removes it: holding the
// lock, for the moment that takes, and only the file at the path. It
// leaves the file to whoever holds the lock now, and a file this user may
// not take (another user's). It says what it did, for stop's message.
func removeLeft(path string) string {
	l, err := safeprobe.TryAcquire(path, &safeprobe.LockOptions{NoSync: true})
	if err != nil {
		return ""
	}
	if err := l.Release(); err != nil {
		return fmt.Sprintf(" (removing the file it left: %v)", err)
	}
	return "; removed the file it left"
}

// released reports whether owner no longer holds the lock at path: the
// file is gone, no one holds it, or another process's record is in it.
func released(path string, owner safeprobe.Identity) bool {
	st, err := inspect(path, false)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true
	case err != nil, st.Held && st.Corrupt:
		return false // unreadable, or a new holder's record being written
	}
	return !st.Held || !st.Record.HasIdentity || !st.Record.Identity.Same(owner)
}

// waitRelease polls released until it holds or d has passed.
func waitRelease(path string, owner safeprobe.Identity, d time.Duration) bool {
	deadline := time.Now().Add(d)
	pause := 2 * time.Millisecond
	for {
		if released(path, owner) {
			return true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		time.Sleep(min(pause, left))
		pause = min(2*pause, 100*time.Millisecond)
	}
}

// inherited explains a lock still held once its owner has exited: a
// process that inherited the owner's descriptor holds it.
func inherited(owner safeprobe.Identity) string {
	if s, _ := owner.Probe(); s != safeprobe.Running {
		return fmt.Sprintf(" (pid %d has exited; a process that inherited its lock descriptor holds the lock)", owner.PID)
	}
	return ""
}
