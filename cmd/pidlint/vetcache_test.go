package main

import (
	"slices"
	"testing"
)

// TestVetCacheReplay runs pidlint by the go vet route over one package and
// then another in the same module: the go command caches a vet run's
// output under a key that does not say whether the package was vetted
// itself or only as a dependency, and replays it either way. Package a
// vetted as b's dependency must still report its own finding when named,
// and a's cached finding must not be reported for a run that names only b.
func TestVetCacheReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := copyModule(t, "probes")
	env := []string{"PIDLINT_CACHE=off"}
	run := func(pattern string) []want {
		r := mustRun(t, exitFindings, dir, env, bin, "-format=text", "-goos=linux", "-test=false", pattern)
		return textFindings(t, dir, r.stderr)
	}
	onlyB := []want{{"b/b.go", 13, "PL006"}, {"b/b.go", 22, "PL002"}}
	onlyA := []want{{"a/a.go", 11, "PL001"}}
	for _, step := range []struct {
		pattern string
		want    []want
	}{
		{"./b", onlyB}, // a vetted for its facts only
		{"./a", onlyA}, // a's own run: its finding, not the facts-only run's nothing
		{"./...", append(slices.Clone(onlyA), onlyB...)},
		{"./b", onlyB}, // a's own run replayed as b's dependency: not reported
	} {
		if got := run(step.pattern); !slices.Equal(got, step.want) {
			t.Errorf("pidlint %s: %v, want %v", step.pattern, got, step.want)
		}
	}
}
