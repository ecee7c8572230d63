package frontend

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/rules"
)

// writeTree writes files (slash paths relative to dir) with their
// contents.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		name = filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// rel lists names relative to dir, with slashes.
func rel(t *testing.T, dir string, names []string) []string {
	t.Helper()
	var out []string
	for _, n := range names {
		r, err := filepath.Rel(dir, n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(r))
	}
	return out
}

// walkTree is a repository with Python and shell files where users keep
// them, and copies of them where the walk must not look.
var walkTree = map[string]string{
	"daemon.py":                  "import os\n",
	"pkg/test_daemon.py":         "import os\n",
	"bin/start.sh":               "kill -0 $pid\n",
	"bin/stop.bash":              "kill $pid\n",
	"bin/start":                  "#!/bin/sh\nkill -0 \"$(cat pidfile)\"\n",
	"bin/restart":                "#!/usr/bin/env -S bash -e\n",
	"bin/run-python":             "#!/usr/bin/env python3\n",
	"bin/README":                 "not a script\n",
	"bin/tool.zsh":               "kill -0 $pid\n",
	"test/daemon.bats":           "@test 'x' { run true; }\n",
	".github/scripts/release.sh": "exit 0\n",
	"service/go.mod":             "module example.com/service\n",
	"service/hooks/check.sh":     "exit 0\n",
	"main.go":                    "package main\n",
	"vendor/lib/x.py":            "import os\n",
	"node_modules/pkg/build.sh":  "exit 0\n",
	".git/hooks/pre-commit":      "#!/bin/sh\n",
	"testdata/bad.py":            "import os\n",
	"pkg/__pycache__/cached.py":  "import os\n",
	"venv/pyvenv.cfg":            "home = /usr/bin\n",
	"venv/lib/site.py":           "import os\n",
	"conda/conda-meta/history":   "\n",
	"conda/bin/activate.sh":      "exit 0\n",
}

// TestWalk checks which files the walk finds for Python and shell under
// ./...: by extension, and without one by the "#!" line's shell; and
// what it leaves out: version control, vendor, node_modules, testdata,
// __pycache__ and virtual environments. Each language has its own
// files, sorted.
func TestWalk(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, walkTree)
	targets, errs := resolve(dir, []string{"./..."})
	if len(errs) > 0 || len(targets) != 1 || !targets[0].wild {
		t.Fatalf("resolve(./...) = %+v, %q", targets, errs)
	}
	files, errs := find(targets, []*rules.Language{rules.Python, rules.Shell})
	if len(errs) > 0 {
		t.Fatalf("walk errors: %q", errs)
	}
	if got, want := rel(t, dir, files[rules.Python]), []string{"daemon.py", "pkg/test_daemon.py"}; !slices.Equal(got, want) {
		t.Errorf("Python files %q, want %q", got, want)
	}
	wantShell := []string{".github/scripts/release.sh", "bin/restart", "bin/start", "bin/start.sh", "bin/stop.bash", "service/hooks/check.sh", "test/daemon.bats"}
	if got := rel(t, dir, files[rules.Shell]); !slices.Equal(got, wantShell) {
		t.Errorf("shell files %q, want %q", got, wantShell)
	}
	if len(files) != 2 {
		t.Errorf("files of %d languages, want 2: %v", len(files), files)
	}
}

// TestWalkPatterns checks the patterns' shapes: a directory without
// "/..." is its files only, a file pattern is that file, overlapping
// patterns find a file once, and a directory or file that is not there
// is an error naming the pattern while the others are walked.
func TestWalkPatterns(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, walkTree)
	targets, errs := resolve(dir, []string{"./bin", "example.com/m/...", "./bin/...", "daemon.py", "./nosuch/...", "./main.go", "./cmd/.../x"})
	if want := []string{"pattern ./nosuch/...: no such directory"}; !slices.Equal(errs, want) {
		t.Errorf("resolve errors %q, want %q", errs, want)
	}
	// Go gets its patterns in their order: directories, Go files, and
	// what only the go command resolves.
	if got, want := packagePatterns(rules.Go, targets), []string{"./bin", "example.com/m/...", "./bin/...", "./main.go", "./cmd/.../x"}; !slices.Equal(got, want) {
		t.Errorf("Go's patterns %q, want %q", got, want)
	}
	files, walkErrs := find(targets, []*rules.Language{rules.Python, rules.Shell})
	if len(walkErrs) > 0 {
		t.Fatal(walkErrs)
	}
	if got, want := rel(t, dir, files[rules.Python]), []string{"daemon.py"}; !slices.Equal(got, want) {
		t.Errorf("Python files %q, want %q", got, want)
	}
	if got, want := rel(t, dir, files[rules.Shell]), []string{"bin/restart", "bin/start", "bin/start.sh", "bin/stop.bash"}; !slices.Equal(got, want) {
		t.Errorf("shell files %q, want %q", got, want)
	}
	// Only the languages asked for are looked for: no file is read for
	// its "#!" line when no language has interpreters.
	files, _ = find(targets, []*rules.Language{rules.Python})
	if len(files[rules.Shell]) != 0 || len(files[rules.Python]) != 1 {
		t.Errorf("Python only: %v", files)
	}
}

// TestWalkSymlinks checks that the walk follows no symbolic link: a
// linked directory may lead out of the tree, or into it twice.
func TestWalkSymlinks(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret/x.sh": "kill -0 1\n"})
	writeTree(t, dir, map[string]string{"real.sh": "exit 0\n"})
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "linked")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "real.sh"), filepath.Join(dir, "alias.sh")); err != nil {
		t.Fatal(err)
	}
	targets, _ := resolve(dir, []string{"./..."})
	files, errs := find(targets, []*rules.Language{rules.Shell})
	if got := rel(t, dir, files[rules.Shell]); len(errs) > 0 || !slices.Equal(got, []string{"real.sh"}) {
		t.Errorf("shell files %q (errors %q), want only real.sh", got, errs)
	}
}

// TestWalkUnreadable checks that a directory the walk cannot read is an
// error naming it, and the rest of the tree is still walked.
func TestWalkUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every directory")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a/x.sh": "exit 0\n", "locked/y.sh": "exit 0\n"})
	locked := filepath.Join(dir, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	targets, _ := resolve(dir, []string{"./..."})
	files, errs := find(targets, []*rules.Language{rules.Shell})
	if len(errs) != 1 || !strings.Contains(errs[0], locked) || !strings.Contains(errs[0], "permission denied") {
		t.Errorf("errors %q, want one naming %s", errs, locked)
	}
	if got := rel(t, dir, files[rules.Shell]); !slices.Equal(got, []string{"a/x.sh"}) {
		t.Errorf("shell files %q, want a/x.sh", got)
	}
}
