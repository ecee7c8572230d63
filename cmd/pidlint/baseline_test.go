package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// legacyModule is a module with findings a team accepts on adoption: two
// kill probes in p (the same code twice) and a kill -0 exec in q.
var legacyModule = map[string]string{
	"go.mod": "module example.com/legacy\n\ngo 1.26.0\n",
	"p/p.go": `package p

import "syscall"

func Alive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}

func AliveToo(pid int) bool {
	return syscall.Kill(pid,   0) == nil
}
`,
	"q/q.go": `package q

import (
	"os/exec"
	"strconv"
)

func Alive(pid int) bool {
	return exec.Command("kill", "-0", strconv.Itoa(pid)).Run() == nil
}
`,
}

// outputFormats are the formats a baseline must work with, each with how
// to read the findings out of its output.
var outputFormats = []struct {
	flag     string
	findings func(t *testing.T, dir string, r result) []want
}{
	{"-format=text", func(t *testing.T, dir string, r result) []want {
		// Findings and pidlint's own notes share stderr.
		var lines []string
		for line := range strings.Lines(r.stderr) {
			if !strings.HasPrefix(line, "pidlint: ") {
				lines = append(lines, line)
			}
		}
		return textFindings(t, dir, strings.Join(lines, ""))
	}},
	{"-json", func(t *testing.T, dir string, r result) []want { return jsonFindings(t, dir, r.stdout) }},
	{"-format=sarif", func(t *testing.T, dir string, r result) []want { return sarifFindings(t, r.stdout) }},
	{"-format=github", func(t *testing.T, dir string, r result) []want { return githubFindings(t, r.stdout) }},
}

// TestBaseline records a baseline on a module outside this repository and
// checks, in every output format, that it hides the recorded findings,
// still does after their lines move, shows a new one, reports an entry
// whose code was fixed as stale (but not one in a package the run did
// not analyze), and that a corrupt file is an error naming it.
func TestBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := writeModule(t, legacyModule)

	r := mustRun(t, exitClean, dir, offlineEnv, bin, "-write-baseline=pidlint.baseline", "./...")
	if !strings.Contains(r.stderr, "wrote 3 findings to baseline pidlint.baseline") {
		t.Errorf("-write-baseline: stderr %q", r.stderr)
	}
	var f struct {
		Findings []struct{ File, Rule, Code string }
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "pidlint.baseline"))), &f); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range f.Findings {
		keys = append(keys, e.File+" "+e.Rule+" "+e.Code)
	}
	wantKeys := []string{
		"p/p.go PL001 syscall.Kill(pid, 0)",
		"p/p.go PL001 syscall.Kill(pid, 0)",
		`q/q.go PL005 exec.Command("kill", "-0", strconv.Itoa(pid))`,
	}
	if !slices.Equal(keys, wantKeys) {
		t.Fatalf("baseline entries:\n%s\nwant:\n%s", strings.Join(keys, "\n"), strings.Join(wantKeys, "\n"))
	}

	for _, format := range outputFormats {
		r := mustRun(t, exitClean, dir, offlineEnv, bin, format.flag, "-baseline=pidlint.baseline", "./...")
		if got := format.findings(t, dir, r); len(got) != 0 {
			t.Errorf("%s -baseline: findings %v, want none", format.flag, got)
		}
	}

	// Lines move (a new probe above them) and q's probe is fixed.
	writeFile(t, filepath.Join(dir, "p", "p.go"), strings.Replace(legacyModule["p/p.go"], "func Alive(", `func Other(pid int) bool {
	return syscall.Kill(pid+1, 0) == nil
}

func Alive(`, 1))
	writeFile(t, filepath.Join(dir, "q", "q.go"), "package q\n\nfunc Alive(pid int) bool { return pid > 0 }\n")
	for _, format := range outputFormats {
		r := mustRun(t, exitFindings, dir, offlineEnv, bin, format.flag, "-baseline=pidlint.baseline", "./...")
		if got, want := format.findings(t, dir, r), []want{{"p/p.go", 6, "PL001"}}; !slices.Equal(got, want) {
			t.Errorf("%s -baseline after the edit: findings %v, want %v", format.flag, got, want)
		}
		if !strings.Contains(r.stderr, "baseline pidlint.baseline: stale entry (its finding is gone): q/q.go: PL005: ") ||
			strings.Count(r.stderr, "stale entry") != 1 {
			t.Errorf("%s: stderr does not report the one stale entry:\n%s", format.flag, r.stderr)
		}
	}
	// q is not analyzed: its entry is not called stale.
	r = mustRun(t, exitFindings, dir, offlineEnv, bin, "-baseline=pidlint.baseline", "./p/...")
	if strings.Contains(r.stderr, "stale") {
		t.Errorf("a run over ./p/... calls q's entry stale:\n%s", r.stderr)
	}

	for name, content := range map[string]string{
		"truncated":     "{\n\t\"pidlint_baseline\": 1,\n\t\"findings\": [\n",
		"wrong version": `{"pidlint_baseline": 7, "findings": []}`,
		"no code":       `{"pidlint_baseline": 1, "findings": [{"file": "p/p.go", "rule": "PL001"}]}`,
		"empty":         "",
	} {
		writeFile(t, filepath.Join(dir, "bad.baseline"), content)
		r := mustRun(t, exitError, dir, offlineEnv, bin, "-baseline=bad.baseline", "./...")
		if !strings.Contains(r.stderr, "baseline bad.baseline is corrupt") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%s baseline: stderr should be one line naming it:\n%s", name, r.stderr)
		}
	}
	r = mustRun(t, exitError, dir, offlineEnv, bin, "-baseline=missing.baseline", "./...")
	if !strings.Contains(r.stderr, "missing.baseline") {
		t.Errorf("a missing baseline: stderr %q", r.stderr)
	}
}

// jsonFindings reads -json's tree, {"pkg": {"pidlint": [diagnostics]}},
// in file and line order.
func jsonFindings(t *testing.T, dir, out string) []want {
	t.Helper()
	var tree map[string]map[string][]struct{ Posn, Message string }
	if out == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("-json output is not one JSON tree (%v):\n%s", err, out)
	}
	var lines []string
	for _, byAnalyzer := range tree {
		for _, diags := range byAnalyzer {
			for _, d := range diags {
				rule, _, _ := strings.Cut(d.Message, ":")
				lines = append(lines, d.Posn+": "+rule+": "+d.Message)
			}
		}
	}
	slices.Sort(lines)
	return textFindings(t, dir, strings.Join(lines, "\n"))
}

// sarifFindings reads the results of a SARIF log.
func sarifFindings(t *testing.T, out string) []want {
	t.Helper()
	var doc sarifDoc
	if err := json.NewDecoder(bytes.NewReader([]byte(out))).Decode(&doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("not a SARIF log with one run (%v):\n%s", err, out)
	}
	var got []want
	for _, res := range doc.Runs[0].Results {
		loc := res.Locations[0].PhysicalLocation
		got = append(got, want{loc.ArtifactLocation.URI, loc.Region.StartLine, res.RuleID})
	}
	return got
}

// githubFindings reads GitHub Actions annotations.
func githubFindings(t *testing.T, out string) []want {
	t.Helper()
	var got []want
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		props, _, ok := strings.Cut(strings.TrimPrefix(line, "::error "), "::")
		if !ok {
			t.Fatalf("not an annotation: %q", line)
		}
		var w want
		for p := range strings.SplitSeq(props, ",") {
			k, v, _ := strings.Cut(p, "=")
			switch k {
			case "file":
				w.file = v
			case "line":
				w.line, _ = strconv.Atoi(v)
			case "title":
				w.rule = v
			}
		}
		got = append(got, w)
	}
	return got
}
