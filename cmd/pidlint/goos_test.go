package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goosFindings are the findings in testdata/goos: every probe but one
// (procfs.go, which names no kill or signal call) sits in a file that does
// not build on Linux.
var goosFindings = []want{
	{"darwinonly/darwinonly_darwin.go", 8, "PL001"},
	{"proc/bsd.go", 9, "PL001"},
	{"proc/proc_darwin.go", 7, "PL001"},
	{"proc/proc_freebsd.go", 7, "PL001"},
	{"proc/proc_windows.go", 14, "PL002"},
	{"proc/procfs.go", 10, "PL004"},
}

// goosOf is the OS each finding's message must name.
var goosOf = map[string]string{
	"darwinonly/darwinonly_darwin.go": "on darwin (",
	"proc/bsd.go":                     "on darwin and freebsd (",
	"proc/proc_darwin.go":             "on darwin (",
	"proc/proc_freebsd.go":            "on freebsd (",
	"proc/proc_windows.go":            "on windows (",
	"proc/procfs.go":                  "on darwin, dragonfly, freebsd, js, netbsd, openbsd, wasip1 and windows (",
}

// noCgo keeps the cgo file of testdata/goos/cgoonly out of every build:
// its Windows file then does not type-check.
var noCgo = []string{"CGO_ENABLED=0"}

// TestEveryGOOS runs pidlint ./... on a module whose probes are only in
// _darwin.go, _freebsd.go, _windows.go and //go:build files, and in a
// package that builds only for darwin: one run on this host reports each,
// naming its OS, and skips with one line the package that does not
// type-check for windows. -goos=host sees only what the syntax-only
// check of ignored files sees.
func TestEveryGOOS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module for four GOOS")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := sharedModule(t, "goos")

	r := mustRun(t, exitFindings, dir, noCgo, bin, "./...")
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, goosFindings) {
		t.Errorf("pidlint ./...: %v, want %v\nstderr:\n%s", got, goosFindings, r.stderr)
	}
	for line := range strings.SplitSeq(r.stderr, "\n") {
		for file, os := range goosOf {
			if strings.HasPrefix(line, file+":") && !strings.Contains(line, os) {
				t.Errorf("message does not name %q: %s", os, line)
			}
		}
	}
	skip := "example.com/goos/cgoonly does not build for windows: skipped"
	if strings.Count(r.stderr, skip) != 1 {
		t.Errorf("stderr does not say once %q:\n%s", skip, r.stderr)
	}

	// On the host alone only the syntax-only check of ignored files sees
	// one of them.
	r = mustRun(t, exitFindings, dir, noCgo, bin, "-goos=host", "./...")
	wantHost := []want{{"proc/proc_windows.go", 14, "PL002"}, {"proc/procfs.go", 10, "PL004"}}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantHost) {
		t.Errorf("-goos=host: %v, want %v", got, wantHost)
	}
	r = mustRun(t, exitFindings, dir, noCgo, bin, "-goos=host,freebsd", "./...")
	// No build analyzes the Windows file: the syntax-only check still does.
	wantFreeBSD := []want{{"proc/bsd.go", 9, "PL001"}, {"proc/proc_freebsd.go", 7, "PL001"}, {"proc/proc_windows.go", 14, "PL002"}, {"proc/procfs.go", 10, "PL004"}}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantFreeBSD) {
		t.Errorf("-goos=host,freebsd: %v, want %v", got, wantFreeBSD)
	}
}

// TestFixEveryGOOS applies the fixes of every GOOS build with -fix, checks
// that -diff printed the same change (applied with patch), and that the
// fixed module builds for darwin, freebsd and windows with no finding
// left.
func TestFixEveryGOOS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module for four GOOS")
	}
	t.Parallel()
	bin := pidlintBin(t)
	fixed := copyModule(t, "goos")
	patched := copyModule(t, "goos")

	diff := mustRun(t, exitFindings, patched, noCgo, bin, "-diff", "./...") // -diff fixes nothing: the findings remain
	if n := strings.Count(diff.stdout, "\n+++ "); n != len(goosFindings) {
		t.Errorf("-diff changes %d files, want %d:\n%s", n, len(goosFindings), diff.stdout)
	}
	patch := filepath.Join(t.TempDir(), "fix.diff")
	if err := os.WriteFile(patch, []byte(diff.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, 0, patched, nil, "patch", "-p0", "-s", "-i", patch)

	mustRun(t, exitClean, fixed, noCgo, bin, "-fix", "./...")
	for _, w := range goosFindings {
		got, want := readFile(t, filepath.Join(fixed, w.file)), readFile(t, filepath.Join(patched, w.file))
		if got != want {
			t.Errorf("%s: -fix wrote\n%s\nthe -diff patch made\n%s", w.file, got, want)
		}
	}
	checkGofmt(t, fixed)
	offline := []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}
	mustRun(t, 0, fixed, offline, "go", "mod", "tidy")
	for _, goos := range []string{"darwin", "freebsd", "windows"} {
		mustRun(t, 0, fixed, []string{"GOOS=" + goos, "CGO_ENABLED=0"}, "go", "build", "./proc", "./darwinonly/...")
	}
	r := mustRun(t, exitClean, fixed, noCgo, bin, "./...")
	if got := textFindings(t, fixed, r.stderr); len(got) > 0 {
		t.Errorf("findings after -fix: %v", got)
	}
}

// TestEmptyBuildCache checks that with an empty build cache, where pidlint
// loads in-process instead of running go vet, it reports what it reports
// with a warm one: every GOOS's findings, wrapper facts across packages,
// the skipped package.
func TestEmptyBuildCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes two modules with an empty build cache")
	}
	t.Parallel()
	bin := pidlintBin(t)
	for _, tc := range []struct {
		module string
		want   []want
		env    []string
	}{
		{"goos", goosFindings, noCgo},
		{"probes", probesFindings, nil}, // net, with cgo where the host has it
	} {
		// Each module in a directory and build cache of its own.
		t.Run(tc.module, func(t *testing.T) {
			t.Parallel()
			dir := copyModule(t, tc.module)
			env := append([]string{"GOCACHE=" + t.TempDir(), "GOFLAGS=-modcacherw"}, tc.env...)
			r := mustRun(t, exitFindings, dir, env, bin, "-v", "./...")
			if !strings.Contains(r.stderr, "in-process (the build cache is empty)") {
				t.Errorf("%s: an empty build cache did not load in-process:\n%s", tc.module, r.stderr)
			}
			if got := textFindings(t, dir, r.stderr); !slices.Equal(got, tc.want) {
				t.Errorf("%s, empty build cache: %v, want %v\nstderr:\n%s", tc.module, got, tc.want, r.stderr)
			}
			if tc.module == "goos" && !strings.Contains(r.stderr, "example.com/goos/cgoonly does not build for windows: skipped") {
				t.Errorf("goos, empty build cache: cgoonly not skipped for windows:\n%s", r.stderr)
			}
		})
	}
}

// TestOtherGOOSCache runs pidlint ./... twice on testdata/goos: the second
// run takes the builds beyond the host's from the cache, with the same
// findings, and runs go vet for the host alone; an edited file runs them
// again; PIDLINT_CACHE=off runs them every time.
func TestOtherGOOSCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module for four GOOS")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := copyModule(t, "goos")
	env := append([]string{"PIDLINT_CACHE=" + t.TempDir()}, noCgo...)
	otherVet := func(stderr string) []string {
		var ran []string
		for _, goos := range []string{"darwin", "windows", "freebsd"} {
			if strings.Contains(stderr, "GOOS="+goos+" go vet") {
				ran = append(ran, goos)
			}
		}
		return ran
	}

	first := mustRun(t, exitFindings, dir, env, bin, "-v", "./...")
	if ran := otherVet(first.stderr); len(ran) != 3 {
		t.Fatalf("first run: go vet ran for %v, want darwin, windows and freebsd\n%s", ran, first.stderr)
	}
	second := mustRun(t, exitFindings, dir, env, bin, "-v", "./...")
	if ran := otherVet(second.stderr); len(ran) != 0 {
		t.Errorf("unchanged tree: go vet ran again for %v", ran)
	}
	if got := textFindings(t, dir, second.stderr); !slices.Equal(got, goosFindings) {
		t.Errorf("from the cache: %v, want %v", got, goosFindings)
	}
	if !strings.Contains(second.stderr, "example.com/goos/cgoonly does not build for windows: skipped") {
		t.Errorf("from the cache, the skipped package is not said:\n%s", second.stderr)
	}

	// A new probe in the Windows file: the builds run again and see it.
	name := filepath.Join(dir, "proc", "proc_windows.go")
	writeFile(t, name, readFile(t, name)+"\nfunc Gone() bool { return os.Getpid() < 0 || Running() && false }\n\nfunc Alive(p *os.Process) bool { return p.Signal(syscall.Signal(0)) == nil }\n")
	third := mustRun(t, exitFindings, dir, env, bin, "-v", "./...")
	if ran := otherVet(third.stderr); !slices.Contains(ran, "windows") {
		t.Errorf("after an edit: go vet ran for %v, want windows among them", ran)
	}
	if got := textFindings(t, dir, third.stderr); len(got) != len(goosFindings)+1 {
		t.Errorf("after an edit: %v, want the new Signal(0) too", got)
	}

	off := append([]string{"PIDLINT_CACHE=off"}, noCgo...)
	for range 2 {
		if r := mustRun(t, exitFindings, dir, off, bin, "-v", "./..."); len(otherVet(r.stderr)) != 3 {
			t.Errorf("PIDLINT_CACHE=off: go vet ran for %v, want every GOOS", otherVet(r.stderr))
		}
	}
}

// TestUnixOnlyPackageMessages runs every GOOS on a module with a package
// that does not build for windows (a _unix.go file, which windows' build
// would include, beside a syscall.Kill call) and one that does: each
// probe is one line, the first naming Unix only, the second windows, as
// the builds that report it agree.
func TestUnixOnlyPackageMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module for four GOOS")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := sharedModule(t, "unixonly")
	r := mustRun(t, exitFindings, dir, nil, bin, "./...")
	want := []want{{"anypkg/probe.go", 10, "PL002"}, {"unixpkg/probe_unix.go", 11, "PL002"}}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, want) {
		t.Fatalf("pidlint ./...: %v, want %v\nstderr:\n%s", got, want, r.stderr)
	}
	for line := range strings.SplitSeq(r.stderr, "\n") {
		switch {
		case strings.HasPrefix(line, "unixpkg/") && strings.Contains(line, "windows"):
			t.Errorf("a package that does not build for windows gets a message about windows: %s", line)
		case strings.HasPrefix(line, "unixpkg/") && !strings.Contains(line, "on every Unix ("):
			t.Errorf("message does not name every Unix: %s", line)
		case strings.HasPrefix(line, "anypkg/") && !strings.Contains(line, "always fails on windows"):
			t.Errorf("message does not name windows: %s", line)
		}
	}
}
