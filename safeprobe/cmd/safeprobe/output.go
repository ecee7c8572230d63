package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/pidlint/pidlint/safeprobe"
)

// printJSON writes v as one line of JSON to stdout and returns code, or
// failCode if it cannot be written.
func printJSON(stdout, stderr io.Writer, v any, code, failCode int) int {
	b, err := json.Marshal(v)
	if err == nil {
		_, err = fmt.Fprintf(stdout, "%s\n", b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "safeprobe: writing JSON: %v\n", err)
		return failCode
	}
	return code
}

// recordJSON is an owner record in status and stop -json.
type recordJSON struct {
	PID      int                 `json:"pid"`
	Program  string              `json:"program,omitempty"`
	Host     string              `json:"host,omitempty"`
	Acquired *time.Time          `json:"acquired,omitempty"`
	Identity *safeprobe.Identity `json:"identity,omitempty"`
}

func recordOf(r safeprobe.Record) *recordJSON {
	j := &recordJSON{PID: r.PID, Program: r.Program, Host: r.Host}
	if !r.Acquired.IsZero() {
		t := r.Acquired
		j.Acquired = &t
	}
	if r.HasIdentity {
		id := r.Identity
		j.Identity = &id
	}
	return j
}

// describe names the holder a record claims, for people: "pid 1234 (app)
// on web1 since 2026-01-02T03:04:05Z".
func describe(r safeprobe.Record) string {
	s := fmt.Sprintf("pid %d", r.PID)
	if r.Program != "" {
		s += fmt.Sprintf(" (%s)", r.Program)
	}
	if r.Host != "" {
		s += " on " + r.Host
	}
	if !r.Acquired.IsZero() {
		s += " since " + r.Acquired.Format(time.RFC3339)
	}
	return s
}
