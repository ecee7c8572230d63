package main

import (
	"slices"
	"strings"
	"testing"
)

// TestFindProcessEveryGOOS runs pidlint ./... on a module with
// os.FindProcess as the verdict in a file for every OS and in a
// _windows.go file: each is reported once, the first naming what goes
// wrong on Unix and on windows, the second what goes wrong on windows.
func TestFindProcessEveryGOOS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module for four GOOS")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := sharedModule(t, "findprocess")

	r := mustRun(t, exitFindings, dir, nil, bin, "./...")
	wantFindings := []want{{"p/p_windows.go", 7, "PL003"}, {"p/plain.go", 9, "PL003"}}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantFindings) {
		t.Errorf("pidlint ./...: %v, want %v\nstderr:\n%s", got, wantFindings, r.stderr)
	}
	says := map[string][]string{
		"p/p_windows.go:": {"wrong on windows (", "ACCESS_DENIED", "exited process"},
		"p/plain.go:":     {"never fails on any OS but windows (", "on windows it fails with ACCESS_DENIED", "exited process"},
	}
	for line := range strings.SplitSeq(r.stderr, "\n") {
		for file, parts := range says {
			for _, part := range parts {
				if strings.HasPrefix(line, file) && !strings.Contains(line, part) {
					t.Errorf("message does not say %q: %s", part, line)
				}
			}
		}
	}
}
