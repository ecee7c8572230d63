package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/analyzer"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// TestRulesDoc fails when docs/rules.md is not what pidlint -explain
// -markdown prints from analyzer.Rules.
func TestRulesDoc(t *testing.T) {
	var buf bytes.Buffer
	if err := writeMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(repoRoot, "docs", "rules.md")
	if *update {
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(name)
	if err != nil || !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("docs/rules.md is stale; run: %s (or go test ./cmd/pidlint -run TestRulesDoc -update)", regenerate)
	}

	// Each rule has its anchor, title and examples.
	doc := buf.String()
	for _, r := range analyzer.Rules {
		for _, s := range []string{`<a id="` + strings.ToLower(r.ID) + `"></a>`, "## " + r.ID + " " + r.Name, "(#" + strings.ToLower(r.ID) + ")", r.Bad, r.Good} {
			if !strings.Contains(doc, s) {
				t.Errorf("docs/rules.md: no %q", s)
			}
		}
	}
}

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
