package python

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/source"
)

// TestMain keeps the tests' runs out of the user's cache; TestCache sets
// one of its own.
func TestMain(m *testing.M) {
	os.Setenv(frontend.CacheEnv, "off")
	os.Exit(m.Run())
}

// TestCache checks that a second run over the same files gives the first's
// findings from the run cache, without parsing (an entry emptied by hand
// gives nothing), and that an edited file is checked again.
func TestCache(t *testing.T) {
	cacheDir := t.TempDir()
	t.Setenv(frontend.CacheEnv, cacheDir)
	dir := t.TempDir()
	file := filepath.Join(dir, "stop.py")
	write := func(text string) {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func() int {
		t.Helper()
		res, err := New().Check(&frontend.Input{Dir: dir, Files: []string{file}, Source: source.NewCache()})
		if err != nil || len(res.Errors) > 0 {
			t.Fatal(err, res.Errors)
		}
		return len(res.Findings)
	}
	entries := func() []string {
		names, _ := filepath.Glob(filepath.Join(cacheDir, "python", "*", "*.json"))
		return names
	}
	write("import os, signal\n\nwith open('/run/app.pid') as f:\n    os.kill(int(f.read()), signal.SIGTERM)\n")
	if n := check(); n != 1 || len(entries()) != 1 {
		t.Fatalf("first run: %d findings, entries %q; want 1 and one entry", n, entries())
	}
	if err := os.WriteFile(entries()[0], []byte(`{"Findings":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := check(); n != 0 {
		t.Errorf("over an emptied entry: %d findings, want the entry's none", n)
	}
	write("import os\n")
	if n := check(); n != 0 || len(entries()) != 2 {
		t.Errorf("after an edit: %d findings, entries %q; want none, from a new entry", n, entries())
	}
}
