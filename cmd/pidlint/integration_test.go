package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
)

// vetLine matches a go vet diagnostic: "a/a.go:11:9: PL001: …".
var vetLine = regexp.MustCompile(`(?m)^(?:\./)?([^\s:]+\.go):(\d+):\d+: (PL\d{3}): `)

func vetFindings(out string) []want {
	var got []want
	for _, m := range vetLine.FindAllStringSubmatch(out, -1) {
		line, _ := strconv.Atoi(m[2])
		got = append(got, want{filepath.ToSlash(m[1]), line, m[3]})
	}
	return got
}

// TestVetAndFix runs the pidlint binary the way go vet and go fix do, on a
// module of two packages: package a has a kill wrapper and a direct
// kill(pid, 0) (PL001), package b calls a's wrapper with 0 (PL006, through
// a fact exported across packages) and Process.Signal(0) (PL002). go fix
// -fixtool applies the suggested fixes; the module must then build, be
// gofmt-clean and have no findings.
func TestVetAndFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and runs go vet and go fix")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := copyModule(t, "probes")

	start := time.Now()
	r := mustRun(t, 1, dir, nil, "go", "vet", "-vettool="+bin, "./...")
	if got := vetFindings(r.stderr); !slices.Equal(got, probesFindings) {
		t.Fatalf("go vet -vettool findings:\n%v\nwant:\n%v\noutput:\n%s", got, probesFindings, r.stderr)
	}
	t.Logf("go vet -vettool: %v", time.Since(start).Round(time.Millisecond))

	start = time.Now()
	mustRun(t, 0, dir, nil, "go", "fix", "-fixtool="+bin, "./...")
	t.Logf("go fix -fixtool: %v", time.Since(start).Round(time.Millisecond))

	// The fixes import safeprobe, whose own dependencies go.mod must now
	// list; tidy from the module cache only.
	offline := []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}
	mustRun(t, 0, dir, offline, "go", "mod", "tidy")
	mustRun(t, 0, dir, nil, "go", "build", "./...")
	checkGofmt(t, dir)
	r = mustRun(t, 0, dir, nil, "go", "vet", "-vettool="+bin, "./...")
	if r.stderr != "" {
		t.Errorf("go vet -vettool after go fix reports:\n%s", r.stderr)
	}
	for _, f := range []string{"a/a.go", "b/b.go"} {
		src := readFile(t, filepath.Join(dir, f))
		if !regexp.MustCompile(`safeprobe\.(Alive|CheckProcess)\(`).MatchString(src) {
			t.Errorf("%s: no safeprobe call after go fix:\n%s", f, src)
		}
	}
}
