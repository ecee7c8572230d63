package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNewFromRev makes a git repository of testdata/probes, commits it,
// then adds a finding to a tracked file and a new untracked package with
// another: -new-from-rev=HEAD reports only those two.
func TestNewFromRev(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	bin := pidlintBin(t)
	dir := copyModule(t, "probes")
	commitAll(t, dir)

	// Nothing changed since HEAD: clean.
	r := mustRun(t, exitClean, dir, nil, bin, "-new-from-rev=HEAD", "./...")
	if r.stdout+r.stderr != "" {
		t.Errorf("-new-from-rev=HEAD with no changes printed:\n%s%s", r.stdout, r.stderr)
	}

	// A new probe in b/b.go, below an edited comment, and a new package.
	b := readFile(t, filepath.Join(dir, "b", "b.go"))
	b = strings.Replace(b, "// Stop asks the process to stop.", "// Stop asks the process to stop\n// (SIGTERM).", 1)
	b += "\n// Gone reports whether pid has exited.\nfunc Gone(pid int) bool { return syscall.Kill(pid, 0) != nil }\n"
	writeFile(t, filepath.Join(dir, "b", "b.go"), b)
	writeFile(t, filepath.Join(dir, "c", "c.go"), "package c\n\nimport \"syscall\"\n\nfunc Up(pid int) bool { return syscall.Kill(pid, 0) == nil }\n")
	wantNew := []want{{"b/b.go", 30, "PL001"}, {"c/c.go", 5, "PL001"}}

	r = mustRun(t, exitFindings, dir, nil, bin, "-new-from-rev=HEAD", "./...")
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantNew) {
		t.Errorf("-new-from-rev=HEAD: %v, want %v\n%s", got, wantNew, r.stderr)
	}
	// From b/, in GitHub format: ./... is b alone.
	r = mustRun(t, exitFindings, filepath.Join(dir, "b"), nil, bin, "-format=github", "-new-from-rev=main", "./...")
	if n := strings.Count(r.stdout, "::error "); n != 1 || !strings.Contains(r.stdout, "file=b/b.go,line=30,") {
		t.Errorf("-format=github -new-from-rev=main in b/: want one annotation at b/b.go:30, got\n%s", r.stdout)
	}

	// (The workflow recipe's test checks committed changes against a
	// base branch.)
	r = mustRun(t, exitError, dir, nil, bin, "-new-from-rev=no-such-rev", "./...")
	if !strings.Contains(r.stderr, "no-such-rev") {
		t.Errorf("unknown revision: stderr does not name it: %q", r.stderr)
	}
}

func writeFile(t testing.TB, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
