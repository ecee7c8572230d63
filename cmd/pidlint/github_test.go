package main

import (
	"strings"
	"testing"
)

// TestGitHub runs -format=github on testdata/probes.
func TestGitHub(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := sharedModule(t, "probes")
	r := mustRun(t, exitFindings, dir, nil, bin, "-format=github", "./...")
	var got []string
	for line := range strings.SplitSeq(strings.TrimSpace(r.stdout), "\n") {
		cmd, msg, ok := strings.Cut(line, "::PL")
		if !ok {
			t.Fatalf("not an annotation: %q", line)
		}
		got = append(got, cmd+" "+strings.SplitN(msg, ":", 2)[0])
	}
	want := []string{
		"::error file=a/a.go,line=11,col=9,title=PL001 001",
		"::error file=b/b.go,line=13,col=9,title=PL006 006",
		"::error file=b/b.go,line=22,col=9,title=PL002 002",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("annotations:\n%s\nwant:\n%s\noutput:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), r.stdout)
	}
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
}
