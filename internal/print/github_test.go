package print

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/pidlint/pidlint/internal/finding"
)

// TestGitHubEscaping checks the workflow-command escapes: %, CR and LF in
// the message; also ':' and ',' in property values.
func TestGitHubEscaping(t *testing.T) {
	root := filepath.FromSlash("/src")
	rep := &finding.Report{Root: root, Findings: []finding.Finding{
		{
			Pos:     finding.Position{File: filepath.Join(root, "dir,1", "a:b%.go"), Line: 3, Column: 7},
			Rule:    "PL004",
			Message: "PL004: 100% wrong\r\non: every, OS",
		},
		{
			Pos:     finding.Position{File: filepath.Join(root, "c.go"), Line: 1, Column: 1},
			Message: "this pidlint:ignore PL001 matched nothing",
		},
		{ // outside the root: the absolute name
			Pos:     finding.Position{File: filepath.FromSlash("/elsewhere/d.go"), Line: 2, Column: 1},
			Rule:    "PL001",
			Message: "PL001: m",
		},
	}}
	var buf bytes.Buffer
	if err := (GitHub{&buf}).Print(rep); err != nil {
		t.Fatal(err)
	}
	want := "::error file=dir%2C1/a%3Ab%25.go,line=3,col=7,title=PL004::PL004: 100%25 wrong%0D%0Aon: every, OS\n" +
		"::error file=c.go,line=1,col=1,title=pidlint::this pidlint:ignore PL001 matched nothing\n" +
		"::error file=" + escapeProperty(filepath.FromSlash("/elsewhere/d.go")) + ",line=2,col=1,title=PL001::PL001: m\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}
