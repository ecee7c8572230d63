package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Python trees for the end-to-end tests: a stop script that signals the
// PID its file holds, a probe that runs on Windows too, a clean file that
// signals its own child, and a file that does not parse.
const (
	stopScript = `import os
import signal


def stop(pidfile):
    with open(pidfile) as f:
        pid = int(f.read())
    os.kill(pid, signal.SIGTERM)
`
	aliveScript = `import os


def alive(pid):
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True
`
	childScript = `import os
import signal
import subprocess


def restart(cmd):
    child = subprocess.Popen(cmd)
    os.kill(child.pid, signal.SIGTERM)
    return child.wait()
`
	brokenScript = `import os

def stop(:
    os.kill(int(open("run.pid").read()), 15)
`
)

// TestPythonNoModule runs pidlint ./... in a directory with no go.mod and
// no Go file, as in a Python repository: its findings and exit codes are
// those of a Go run (3 with findings, 0 clean, 1 when a file does not
// parse, whose error names it while the other files are still checked),
// no go command is needed, and -vendor-python-helper writes the helper.
func TestPythonNoModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint")
	}
	t.Parallel()
	bin := pidlintBin(t)
	noGo := []string{"PATH=" + t.TempDir()}

	dir := writeModule(t, map[string]string{"tools/stop.py": stopScript, "tools/alive.py": aliveScript, "tools/child.py": childScript})
	r := mustRun(t, exitFindings, dir, noGo, bin, "./...")
	got := textFindings(t, dir, r.stderr)
	if w := []want{{"tools/alive.py", 6, "PY001"}, {"tools/stop.py", 8, "PY003"}}; !slices.Equal(got, w) {
		t.Errorf("findings %v, want %v\n%s", got, w, r.stderr)
	}

	clean := writeModule(t, map[string]string{"child.py": childScript})
	if r := mustRun(t, exitClean, clean, noGo, bin, "./..."); r.stderr != "" || r.stdout != "" {
		t.Errorf("clean tree: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	// The helper the fixes call, written into the tree, is clean itself.
	r = mustRun(t, exitClean, clean, noGo, bin, "-vendor-python-helper=tools", "./...")
	if r.stderr != "pidlint: wrote "+filepath.Join("tools", "pidprobe.py")+": import pidprobe there\n" {
		t.Errorf("-vendor-python-helper: stderr %q", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(clean, "tools", "pidprobe.py")); err != nil {
		t.Error(err)
	}

	broken := writeModule(t, map[string]string{"broken.py": brokenScript, "stop.py": stopScript})
	r = mustRun(t, exitError, broken, noGo, bin, "./...")
	if !strings.Contains(r.stderr, "pidlint: broken.py:3: syntax error") || strings.Count(r.stderr, "syntax error") != 1 {
		t.Errorf("a file that does not parse must be reported once, by name and line:\n%s", r.stderr)
	}
	if got := textFindings(t, broken, r.stderr); !slices.Contains(got, want{"stop.py", 8, "PY003"}) {
		t.Errorf("the run must go on past broken.py: findings %v\n%s", got, r.stderr)
	}
}

// TestPythonInGoModule runs pidlint on a Go module that holds Python
// tooling: one run reports both languages, in text, in JSON (a .py
// finding keyed by its directory) and in SARIF (a .py result with its
// own rule entry), and -languages picks one.
func TestPythonInGoModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	files := map[string]string{"scripts/stop.py": stopScript}
	for name, content := range mixedModule {
		files[name] = content
	}
	mod := writeModule(t, files)

	r := mustRun(t, exitFindings, mod, offlineEnv, bin, "-goos=host", "./...")
	got := textFindings(t, mod, r.stderr)
	for _, w := range []want{{"kill.go", 6, "PL001"}, {"scripts/stop.py", 8, "PY003"}} {
		if !slices.Contains(got, w) {
			t.Errorf("no %v in %v", w, got)
		}
	}

	r = mustRun(t, exitFindings, mod, offlineEnv, bin, "-goos=host", "-json", "./...")
	var out map[string]map[string][]struct {
		Category string `json:"category"`
		Posn     string `json:"posn"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("-json: %v\n%s", err, r.stdout)
	}
	py := out["./scripts"]["pidlint"]
	if len(py) != 1 || py[0].Category != "PY003" || !strings.HasSuffix(py[0].Posn, "stop.py:8:5") {
		t.Errorf("-json: the Python finding under ./scripts is %+v; output:\n%s", py, r.stdout)
	}

	r = mustRun(t, exitFindings, mod, offlineEnv, bin, "-goos=host", "-format=sarif", "./...")
	var sarif struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &sarif); err != nil || len(sarif.Runs) != 1 {
		t.Fatalf("-format=sarif: %v\n%s", err, r.stdout)
	}
	var ids, results []string
	for _, rule := range sarif.Runs[0].Tool.Driver.Rules {
		ids = append(ids, rule.ID)
	}
	for _, res := range sarif.Runs[0].Results {
		results = append(results, res.RuleID+" "+res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
	}
	if !slices.Contains(ids, "PY003") || !slices.Contains(results, "PY003 scripts/stop.py") || !slices.Contains(results, "PL001 kill.go") {
		t.Errorf("-format=sarif: rules %v, results %v; want PY003's rule entry and both languages' results", ids, results)
	}

	r = mustRun(t, exitFindings, mod, offlineEnv, bin, "-goos=host", "-languages=python", "./...")
	if got := textFindings(t, mod, r.stderr); !slices.Equal(got, []want{{"scripts/stop.py", 8, "PY003"}}) {
		t.Errorf("-languages=python: findings %v", got)
	}
}
