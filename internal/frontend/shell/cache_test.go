package shell

import (
	"os"
	"path/filepath"
	"slices"
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

// TestCache checks the run cache: a second run over the same files gives
// the first's result from one entry; a changed file, or other settings, are
// checked again; an entry that does not decode is a miss; "off" keeps none.
func TestCache(t *testing.T) {
	cacheDir := t.TempDir()
	t.Setenv(frontend.CacheEnv, cacheDir)
	dir := t.TempDir()
	script := filepath.Join(dir, "stop.sh")
	write := func(text string) {
		if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(settings frontend.Settings) []string {
		t.Helper()
		// A new source cache for each run, as each pidlint process has.
		res, err := New().Check(&frontend.Input{Dir: dir, Files: []string{script}, Settings: settings, Source: source.NewCache()})
		if err != nil {
			t.Fatal(err)
		}
		return append(got(res.Findings), res.Errors...)
	}
	entries := func() []string {
		t.Helper()
		names, err := filepath.Glob(filepath.Join(cacheDir, "shell", "*", "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		return names
	}

	write("kill \"$(cat /run/app.pid)\"\n")
	first := check(frontend.Settings{})
	if !slices.Equal(first, []string{"stop.sh:1: SH002"}) || len(entries()) != 1 {
		t.Fatalf("first run: %q, entries %q", first, entries())
	}
	if again := check(frontend.Settings{}); !slices.Equal(again, first) || len(entries()) != 1 {
		t.Errorf("second run: %q, entries %q; want the first's from one entry", again, entries())
	}
	// The result is the entry's: one emptied by hand gives nothing.
	if err := os.WriteFile(entries()[0], []byte(`{"Findings":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if fromEntry := check(frontend.Settings{}); len(fromEntry) != 0 {
		t.Errorf("over an emptied entry: %q, want what it holds, nothing", fromEntry)
	}
	os.Remove(entries()[0])
	check(frontend.Settings{})
	if disabled := check(frontend.Settings{Disable: []string{"SH002"}}); len(disabled) != 0 || len(entries()) != 2 {
		t.Errorf("-disable=SH002: %q, entries %q; want none, from a second entry", disabled, entries())
	}

	write("sleep 9 &\nkill \"$!\"\n")
	if changed := check(frontend.Settings{}); len(changed) != 0 {
		t.Errorf("after the file changed: %q, want none", changed)
	}

	write("kill \"$(cat /run/app.pid)\"\n")
	for _, name := range entries() {
		if err := os.WriteFile(name, []byte("{not json"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if corrupt := check(frontend.Settings{}); !slices.Equal(corrupt, first) {
		t.Errorf("over an entry that does not decode: %q, want %q", corrupt, first)
	}

	before := len(entries())
	write("kill -0 \"$(cat /run/other.pid)\"\n")
	t.Setenv(frontend.CacheEnv, "off")
	if uncached := check(frontend.Settings{}); !slices.Equal(uncached, []string{"stop.sh:1: SH001"}) || len(entries()) != before {
		t.Errorf("%s=off: %q, entries %d, want SH001 and still %d", frontend.CacheEnv, uncached, len(entries()), before)
	}
}
