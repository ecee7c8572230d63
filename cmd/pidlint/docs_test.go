package main

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// TestExplainMarkdown checks that the binary's -explain -markdown is the
// generator the drift test names.
func TestExplainMarkdown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint")
	}
	r := mustRun(t, 0, ".", nil, pidlintBin(t), "-explain", "-markdown")
	if want := readFile(t, filepath.Join(repoRoot, "docs", "rules.md")); r.stdout != want {
		t.Errorf("pidlint -explain -markdown differs from docs/rules.md")
	}
	r = mustRun(t, 0, ".", nil, pidlintBin(t), "-explain", "PL004")
	if !strings.HasPrefix(r.stdout, "PL004 proc-stat: ") {
		t.Errorf("pidlint -explain PL004:\n%s", r.stdout)
	}
}

// TestDirectivesDocumented checks that the pages that tell users how to
// silence a finding name both directives, that rules go by name too, and
// the category of a bad directive's report.
func TestDirectivesDocumented(t *testing.T) {
	for _, page := range []string{"README.md", "docs/rules.md", "docs/golangci-lint.md", "analyzer/doc.go"} {
		// Lines joined, doc comments' "//" dropped.
		text := strings.Join(strings.Fields(strings.ReplaceAll(readFile(t, filepath.Join(repoRoot, page)), "\n//", "\n")), " ")
		for _, s := range []string{"//pidlint:ignore", "//pidlint:file-ignore", "or name", "bad-ignore"} {
			if !strings.Contains(text, s) {
				t.Errorf("%s does not say %q", page, s)
			}
		}
	}
}
