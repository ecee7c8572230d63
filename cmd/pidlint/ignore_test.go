package main

import (
	"slices"
	"strings"
	"testing"
)

// TestFileIgnoreEveryGOOS runs pidlint ./... on a module with
// //pidlint:file-ignore directives in files that build for darwin, for
// windows and for every Unix: each build honours them, a bad one is
// reported on one line however many builds see it, and one in a file that
// only another GOOS builds, with nothing else a rule looks at, is seen.
// -goos=host honours the directive of the windows file its syntax-only
// check reads.
func TestFileIgnoreEveryGOOS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module for four GOOS")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := sharedModule(t, "ignores")

	r := mustRun(t, exitFindings, dir, noCgo, bin, "./...")
	wantAll := []want{
		{"probe/unix.go", 5, "pidlint"}, // pidlint:file-ignore PL001 needs a reason
		{"probe/unix.go", 10, "PL001"},
		{"winonly/dir_windows.go", 3, "pidlint"}, // names unknown rule "procstat"
	}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantAll) {
		t.Errorf("pidlint ./...: %v, want %v\nstderr:\n%s", got, wantAll, r.stderr)
	}
	for _, msg := range []string{
		"probe/unix.go:5:1: pidlint:file-ignore PL001 needs a reason after the rule\n",
		`winonly/dir_windows.go:3:1: pidlint:file-ignore names unknown rule "procstat"`,
	} {
		if strings.Count(r.stderr, msg) != 1 {
			t.Errorf("stderr does not say once %q:\n%s", msg, r.stderr)
		}
	}

	r = mustRun(t, exitFindings, dir, noCgo, bin, "-goos=host", "./...")
	wantHost := wantAll[:2]
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantHost) {
		t.Errorf("-goos=host: %v, want %v\nstderr:\n%s", got, wantHost, r.stderr)
	}
}
