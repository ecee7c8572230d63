package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/pidlint/pidlint/safeprobe"
)

// Exit codes of status: the LSB init script status codes.
const (
	statusRunning    = 0
	statusDead       = 1 // not running, the lock file left
	statusNotRunning = 3
	statusUnknown    = 4
)

// statusJSON is status -json's output.
type statusJSON struct {
	Path    string      `json:"path"`
	Status  string      `json:"status"` // running, dead, not running, unknown
	Code    int         `json:"code"`
	Held    bool        `json:"held"`
	Holder  *recordJSON `json:"holder,omitempty"`
	State   string      `json:"state,omitempty"` // what the OS says of the holder the record names
	Corrupt string      `json:"corrupt,omitempty"`
	Message string      `json:"message"`
}

func runStatus(args []string, stdout, stderr io.Writer) int {
	fs := flagSet("status")
	asJSON := fs.Bool("json", false, "")
	operand, code := parseOne("status", "lock file", fs, args, stdout, stderr)
	if code >= 0 {
		return code
	}
	out, _ := lockStatus(operand)
	if *asJSON {
		return printJSON(stdout, stderr, out, out.Code, statusUnknown)
	}
	w := stdout
	if out.Code == statusUnknown {
		w = stderr
	}
	fmt.Fprintf(w, "%s: %s\n", out.Status, out.Message)
	return out.Code
}

// lockStatus inspects the lock at path and classifies it with the LSB
// codes; it returns what Inspect found too.
func lockStatus(path string) (statusJSON, safeprobe.Status) {
	st, err := inspect(path, true)
	out := statusJSON{Path: path, Held: st.Held}
	set := func(code int, status, format string, a ...any) (statusJSON, safeprobe.Status) {
		out.Code, out.Status, out.Message = code, status, fmt.Sprintf(format, a...)
		return out, st
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return set(statusNotRunning, "not running", "no lock file at %s", path)
	case err != nil:
		return set(statusUnknown, "unknown", "%v", err)
	}
	if st.Corrupt {
		out.Corrupt = st.Reason
	} else {
		out.Holder, out.State = recordOf(st.Record), st.State.String()
	}
	switch {
	case !st.Held && st.Corrupt:
		return set(statusDead, "dead", "the lock is free; %s is left with a corrupt record (%s)", path, st.Reason)
	case !st.Held:
		return set(statusDead, "dead", "the lock is free; %s is left by %s, which is %s", path, describe(st.Record), goneState(st.State))
	case st.Corrupt:
		return set(statusUnknown, "unknown", "the lock %s is held, but its record is corrupt (%s): the holder cannot be named", path, st.Reason)
	case st.State == safeprobe.Running:
		return set(statusRunning, "running", "%s holds %s", describe(st.Record), path)
	case st.State == safeprobe.Unknown:
		return set(statusUnknown, "unknown", "the lock %s is held; the OS would not say whether %s runs", path, describe(st.Record))
	}
	return set(statusUnknown, "unknown", "the lock %s is held, but not by %s, which is %s: "+
		"a process that inherited its descriptor holds it", path, describe(st.Record), goneState(st.State))
}

// goneState says what a holder's state means, for a record whose holder
// no longer holds the lock.
func goneState(s safeprobe.State) string {
	switch s {
	case safeprobe.Running:
		return "still running"
	case safeprobe.Reused:
		return "gone (its PID now names another process)"
	case safeprobe.Zombie:
		return "gone (a zombie)"
	case safeprobe.NotFound:
		return "gone"
	}
	return "in an unknown state"
}
