// Package gocmd runs the go command for a pidlint run, for one GOOS at a
// time, and asks it about the module the run is in.
package gocmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// A Runner runs the go command in Dir (the current directory if ""); with
// Verbose, it prints each command line on Log first.
type Runner struct {
	Dir     string
	Verbose bool
	Log     io.Writer

	envOnce sync.Once
	env     map[string]string
	envErr  error
}

// Env returns the go command's value of the variable name: one of
// GOMOD, GOWORK and GOCACHE, which it asks for at once.
func (r *Runner) Env(name string) (string, error) {
	r.envOnce.Do(func() {
		out, err := r.Output("env", "-json", "GOMOD", "GOWORK", "GOCACHE")
		if err != nil {
			r.envErr = err
			return
		}
		r.envErr = json.Unmarshal([]byte(out), &r.env)
	})
	return r.env[name], r.envErr
}

// Command returns the go command with args, for goos ("" keeps the
// environment's).
func (r *Runner) Command(goos string, args ...string) *exec.Cmd {
	if r.Verbose {
		line := strings.Join(args, " ")
		if len(line) > 200 {
			line = fmt.Sprintf("%s… (%d arguments)", line[:200], len(args))
		}
		if goos != "" {
			line = "GOOS=" + goos + " go " + line
		} else {
			line = "go " + line
		}
		fmt.Fprintf(r.Log, "pidlint: %s\n", line)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = r.Dir
	cmd.Env = os.Environ()
	if goos != "" {
		cmd.Env = append(cmd.Env, "GOOS="+goos)
	}
	return cmd
}

// Output runs the go command with args and returns its standard output;
// its error names the subcommand and carries what the go command said.
func (r *Runner) Output(args ...string) (string, error) {
	cmd := r.Command("", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("go %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("go %s: %v", args[0], err)
	}
	return string(out), nil
}
