package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// runDriver runs the driver in this process: for arguments that fail
// before any package is loaded.
func runDriver(t *testing.T, dir string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := command{dir: dir, stdout: &stdout, stderr: &stderr}.run(args)
	return result{stdout.String(), stderr.String(), code}
}

// TestDriverUsageErrors checks that a bad flag or value exits 2 with one
// line naming it and pointing at -help, before anything is loaded.
func TestDriverUsageErrors(t *testing.T) {
	dir := t.TempDir() // not a git work tree
	for _, tc := range []struct {
		args []string
		want []string // in the message
	}{
		{[]string{"-format=xml", "./..."}, []string{"-format", `"xml"`, "sarif, github or text"}},
		{[]string{"-format=sarif", "-disable=PL999", "./..."}, []string{"-disable", `"PL999"`}},
		{[]string{"-format=sarif", "-nosuchflag", "./..."}, []string{"-nosuchflag"}},
		{[]string{"-format=github", "-fix", "./..."}, []string{"-format cannot be combined with -fix"}},
		{[]string{"-goos=linux,beos", "./..."}, []string{"-goos", `"beos"`}},
		{[]string{"-format=sarif", "-json", "./..."}, []string{"-format cannot be combined with -json"}},
		{[]string{"-json", "-fix", "./..."}, []string{"-json cannot be combined with -fix"}},
		{[]string{"-write-baseline=b", "-diff", "./..."}, []string{"-diff cannot be combined with -write-baseline"}},
		{[]string{"-write-baseline=b", "-baseline=b", "./..."}, []string{"-write-baseline records every finding"}},
		{[]string{"-baseline=", "./..."}, []string{"need a file name"}},
		{[]string{"-vendor-safeprobe=internal/safeprobe", "-diff", "./..."}, []string{"-vendor-safeprobe writes files"}},
		{[]string{"-fix=maybe", "./..."}, []string{"-fix", `"maybe"`}},
		{[]string{"-format=sarif"}, []string{"no packages"}},
		{[]string{"-new-from-rev=", "./..."}, []string{"-new-from-rev needs a git revision"}},
		{[]string{"-languages=go,cobol", "./..."}, []string{"-languages", `"cobol"`, "go, python, shell"}},
	} {
		r := runDriver(t, dir, tc.args...)
		if r.code != exitUsage {
			t.Errorf("pidlint %s: exit %d, want %d", strings.Join(tc.args, " "), r.code, exitUsage)
		}
		if strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, " (pidlint -help for more)\n") {
			t.Errorf("pidlint %s: want one line ending in (pidlint -help for more), got %q", strings.Join(tc.args, " "), r.stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("pidlint %s: stderr %q does not mention %q", strings.Join(tc.args, " "), r.stderr, w)
			}
		}
		if r.stdout != "" {
			t.Errorf("pidlint %s: stdout %q, want none", strings.Join(tc.args, " "), r.stdout)
		}
	}
	// An unknown revision is an error of the run, not of the command line.
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/m\n"})
	r := runDriver(t, mod, "-new-from-rev=main", "./...")
	if r.code != exitError || !strings.Contains(r.stderr, "-new-from-rev=main") || !strings.Contains(r.stderr, "not in a git work tree") {
		t.Errorf("pidlint -new-from-rev=main outside git: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestDriverFlags runs the binary's -format driver on testdata/probes: its
// exit codes, and the analyzer's flags (-strict, -disable) and -test on
// this path.
func TestDriverFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := sharedModule(t, "probes")

	r := mustRun(t, exitFindings, dir, nil, bin, "-format=text", "./...")
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, probesFindings) {
		t.Errorf("-format=text: %v, want %v", got, probesFindings)
	}
	if r.stdout != "" {
		t.Errorf("-format=text wrote to stdout: %q", r.stdout)
	}

	// -strict also reports the raw probe in b_test.go; -disable drops
	// PL006.
	r = mustRun(t, exitFindings, dir, nil, bin, "-format=text", "-strict", "-disable=PL006", "./...")
	wantStrict := []want{{"a/a.go", 11, "PL001"}, {"b/b.go", 22, "PL002"}, {"b/b_test.go", 10, "PL001"}}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantStrict) {
		t.Errorf("-strict -disable=PL006: %v, want %v", got, wantStrict)
	}

	// -test=false leaves b_test.go out.
	r = mustRun(t, exitFindings, dir, nil, bin, "-format=text", "-strict", "-test=false", "./b")
	wantNoTests := []want{{"b/b.go", 13, "PL006"}, {"b/b.go", 22, "PL002"}}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantNoTests) {
		t.Errorf("-strict -test=false ./b: %v, want %v", got, wantNoTests)
	}

	// Clean: exit 0 and no output, in every format.
	for _, format := range []string{"github", "sarif"} {
		r = mustRun(t, exitClean, dir, nil, bin, "-format="+format, "-disable=PL001", "./a")
		if format != "sarif" && r.stdout+r.stderr != "" {
			t.Errorf("-format=%s on a clean package printed:\n%s%s", format, r.stdout, r.stderr)
		}
	}

	// A package that does not load: exit 1 and the error.
	r = mustRun(t, exitError, dir, nil, bin, "-format=github", "./nosuchdir")
	if !strings.Contains(r.stderr, "nosuchdir") {
		t.Errorf("load error not reported: %q", r.stderr)
	}
}
