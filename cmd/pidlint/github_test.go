package main

import (
	"bytes"
	"go/token"
	"path/filepath"
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
	dir := copyModule(t, "probes")
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

// TestGitHubEscaping checks the workflow-command escapes: %, CR and LF in
// the message; also ':' and ',' in property values.
func TestGitHubEscaping(t *testing.T) {
	root := filepath.FromSlash("/src")
	rep := &report{root: root, findings: []finding{
		{
			pos:     token.Position{Filename: filepath.Join(root, "dir,1", "a:b%.go"), Line: 3, Column: 7},
			rule:    "PL004",
			message: "PL004: 100% wrong\r\non: every, OS",
		},
		{
			pos:     token.Position{Filename: filepath.Join(root, "c.go"), Line: 1, Column: 1},
			message: "this pidlint:ignore PL001 matched nothing",
		},
		{ // outside the root: the absolute name
			pos:     token.Position{Filename: filepath.FromSlash("/elsewhere/d.go"), Line: 2, Column: 1},
			rule:    "PL001",
			message: "PL001: m",
		},
	}}
	var buf bytes.Buffer
	if err := writeGitHub(&buf, rep); err != nil {
		t.Fatal(err)
	}
	want := "::error file=dir%2C1/a%3Ab%25.go,line=3,col=7,title=PL004::PL004: 100%25 wrong%0D%0Aon: every, OS\n" +
		"::error file=c.go,line=1,col=1,title=pidlint::this pidlint:ignore PL001 matched nothing\n" +
		"::error file=" + escapeProperty(filepath.FromSlash("/elsewhere/d.go")) + ",line=2,col=1,title=PL001::PL001: m\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}
