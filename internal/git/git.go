// Package git runs git for the stages that read a work tree: its top
// directory (outputs name files relative to it) and what changed since a
// revision (-new-from-rev).
package git

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Run runs git in dir and returns its standard output.
func Run(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %v: %s", args[0], err, msg)
		}
		return "", fmt.Errorf("git %s: %v", args[0], err)
	}
	return string(out), nil
}

// TopLevel returns the top directory of the git work tree holding dir.
func TopLevel(dir string) (string, error) {
	out, err := Run(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}
