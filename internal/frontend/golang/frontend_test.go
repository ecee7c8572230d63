package golang

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/gocmd"
	"github.com/pidlint/pidlint/internal/source"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
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

// run checks patterns in dir through the seam with the Go front end
// alone.
func run(t *testing.T, dir string, patterns ...string) *frontend.Run {
	t.Helper()
	fe := New(Options{Go: &gocmd.Runner{Dir: dir}, Tool: "/nonexistent/pidlint", Host: "linux", GOOS: []string{"linux"}})
	if fe.Language().Name != "go" {
		t.Fatalf("Language() = %s", fe.Language().Name)
	}
	return &frontend.Run{Dir: dir, Root: dir, Patterns: patterns, FrontEnds: []frontend.FrontEnd{fe}, Source: source.NewCache()}
}

// TestCheckNothingToDo checks that the Go front end with no Go file under
// the patterns checks nothing and starts no go command (there is none on
// PATH here): a directory of Python and shell files, with or without a
// go.mod, costs nothing.
func TestCheckNothingToDo(t *testing.T) {
	for _, files := range []map[string]string{
		{"tools/daemon.py": "import os\n", "bin/start.sh": "exit 0\n"},
		{"go.mod": "module example.com/m\n", "scripts/x.py": "import os\n", "testdata/fixture.go": "package fixture\n", "_gen/x.go": "package gen\n"},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		t.Setenv("PATH", "")
		rep, _, err := run(t, dir, "./...").Check()
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Findings)+len(rep.Errors) != 0 || !slices.Equal(rep.Notes, []string{"nothing to check: no Go files in ./..."}) {
			t.Errorf("%v: findings %v, errors %q, notes %q", files, rep.Findings, rep.Errors, rep.Notes)
		}
	}
}

// TestCheckPatterns checks the patterns the run cannot take: a directory
// that is not there, a file of no language the run checks (a Python file
// when only Go's front end runs). Each is an error naming it, and the
// other patterns are checked.
func TestCheckPatterns(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"x.py": "import os\n", "README.md": "# x\n", "sub/y.py": "import os\n"})
	t.Setenv("PATH", "")
	rep, _, err := run(t, dir, "./nosuch", "./x.py", "README.md", "./sub/...").Check()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"pattern ./nosuch: no such directory",
		"pattern ./x.py: not a file of a language this run checks (go)",
		"pattern README.md: not a file of a language this run checks (go)",
	}
	if !slices.Equal(rep.Errors, want) || len(rep.Notes) != 0 {
		t.Errorf("errors %q, notes %q; want %q", rep.Errors, rep.Notes, want)
	}
}

// TestCheckNoModule checks that Go files outside any module are one
// error naming the problem, and an import path still works there.
func TestCheckNoModule(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.go": "package a\n"})
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	r := run(t, dir, "./...")
	rep, _, err := r.Check()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Errors, []string{ErrNoModule.Error()}) || len(rep.Notes) != 0 {
		t.Errorf("errors %q, notes %q; want the one ErrNoModule", rep.Errors, rep.Notes)
	}
}

// TestCheckInProcess runs the Go front end through the seam on a module,
// by the in-process route (an empty build cache): the finding comes back
// as a finding.Finding keyed by its package, only the Go file counts as
// analyzed, and the Python file next to it is none of Go's business.
func TestCheckInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module with go/packages")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"p.go":   "package p\n\nimport \"syscall\"\n\nfunc Alive(pid int) bool { return syscall.Kill(pid, 0) == nil }\n",
		"x.py":   "import os\n",
	})
	t.Setenv("GOCACHE", t.TempDir()) // empty: the in-process route
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	t.Setenv(CacheEnv, "off")
	r := run(t, dir, "./...")
	rep, analyzed, err := r.Check()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) > 0 || len(rep.Findings) != 1 {
		t.Fatalf("findings %v, errors %q, notes %q", rep.Findings, rep.Errors, rep.Notes)
	}
	f := rep.Findings[0]
	if f.Rule != "PL001" || f.Unit != "example.com/m" || f.Pos.File != filepath.Join(dir, "p.go") || f.Pos.Line != 5 || !slices.Equal(f.GOOS, []string{"linux"}) || !strings.HasPrefix(f.Message, "PL001: ") {
		t.Errorf("finding %+v", f)
	}
	if !analyzed(filepath.Join(dir, "p.go")) || analyzed(filepath.Join(dir, "x.py")) {
		t.Errorf("analyzed: p.go %v, x.py %v", analyzed(filepath.Join(dir, "p.go")), analyzed(filepath.Join(dir, "x.py")))
	}
}
