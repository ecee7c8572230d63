package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A Finding is one pidlint report, its position relative to the module.
type Finding struct {
	Rule    string
	File    string // slash path inside the module
	Line    int
	Message string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message)
}

var ruleRE = regexp.MustCompile(`^(PL[0-9]{3}):`)

// lint runs pidlint -json (with -strict when asked) on the packages in the
// module copy at dir and returns its findings with the lines it printed on
// standard error (packages skipped for a GOOS, load errors). A run that
// exits 1 (an analysis error) still yields what it printed, and the error.
func lint(pidlint, dir string, pkgs []string, strict bool) ([]Finding, string, error) {
	findings, stderr, err := lintAs(pidlint, dir, pkgs, strict, "")
	if err == nil || !strings.Contains(stderr, "build constraints exclude all Go files") {
		return findings, stderr, err
	}
	// pidlint refuses a package named on its command line that has no file
	// for the host's GOOS, instead of analyzing it for the GOOS values it
	// builds for. Run it as if on another OS, which then counts as the host.
	for _, goos := range goosList[1:] {
		f, e, err2 := lintAs(pidlint, dir, pkgs, strict, goos)
		if err2 == nil {
			return f, stderr + e + "recall: re-ran pidlint with GOOS=" + goos + ": a named package has no file for the host\n", nil
		}
	}
	return findings, stderr, err
}

// lintAs runs pidlint once, with GOOS set when goos is not empty.
func lintAs(pidlint, dir string, pkgs []string, strict bool, goos string) ([]Finding, string, error) {
	args := []string{"-json"}
	if strict {
		args = append(args, "-strict")
	}
	args = append(args, pkgs...)
	cmd := exec.Command(pidlint, args...)
	cmd.Dir = dir
	cmd.Env = goEnv()
	if goos != "" {
		cmd.Env = append(cmd.Env, "GOOS="+goos)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	code := 0
	if ee, ok := runErr.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if runErr != nil {
		return nil, stderr.String(), runErr
	}
	findings, err := parseFindings(stdout.Bytes(), dir)
	if err != nil {
		return nil, stderr.String(), fmt.Errorf("pidlint %s: exit %d, output not understood: %v", strings.Join(args, " "), code, err)
	}
	switch code {
	case 0, 3:
		return findings, stderr.String(), nil
	default:
		return findings, stderr.String(), fmt.Errorf("pidlint %s: exit %d", strings.Join(args, " "), code)
	}
}

// parseFindings reads go vet -json's tree {"pkg": {"pidlint": [...]}};
// an analyzer entry may also be {"error": ...}.
func parseFindings(out []byte, dir string) ([]Finding, error) {
	out = bytes.TrimSpace(out)
	if len(out) == 0 {
		return nil, nil
	}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &tree); err != nil {
		return nil, err
	}
	var findings []Finding
	for _, analyzers := range tree {
		for _, raw := range analyzers {
			var diags []struct {
				Category, Posn, Message string
			}
			if json.Unmarshal(raw, &diags) != nil {
				continue // {"error": ...}: pidlint printed it on standard error too
			}
			for _, d := range diags {
				f, err := finding(d.Category, d.Posn, d.Message, dir)
				if err != nil {
					return nil, err
				}
				findings = append(findings, f)
			}
		}
	}
	sort.Slice(findings, func(i, j int) bool {
		a, b := findings[i], findings[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Message < b.Message
	})
	return findings, nil
}

func finding(category, posn, message, dir string) (Finding, error) {
	// posn is file:line:column, the file absolute or relative to dir.
	parts := strings.Split(posn, ":")
	if len(parts) < 3 {
		return Finding{}, fmt.Errorf("position %q is not file:line:column", posn)
	}
	line, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil {
		return Finding{}, fmt.Errorf("position %q: bad line", posn)
	}
	file := strings.Join(parts[:len(parts)-2], ":")
	if filepath.IsAbs(file) {
		rel, err := filepath.Rel(dir, file)
		if err != nil || strings.HasPrefix(rel, "..") {
			return Finding{}, fmt.Errorf("position %q is outside the module copy %s", posn, dir)
		}
		file = rel
	}
	rule := category
	if m := ruleRE.FindStringSubmatch(message); m != nil {
		rule = m[1]
	}
	return Finding{Rule: rule, File: filepath.ToSlash(file), Line: line, Message: message}, nil
}
