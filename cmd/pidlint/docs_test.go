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
		row := "(#" + strings.ToLower(r.ID) + ") | " + r.Name + " | " + escape(r.Title) + " | " + fixColumn(r) + " |"
		for _, s := range []string{`<a id="` + strings.ToLower(r.ID) + `"></a>`, "## " + r.ID + " " + r.Name, row, r.Bad, r.Good} {
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

// TestRuleLists fails when a rule list kept outside analyzer.Rules differs
// from it: doc.go's list (the analyzer's Doc), README.md's table and
// .golangci.yml's description. With -update it rewrites them.
func TestRuleLists(t *testing.T) {
	for _, tt := range []struct {
		file  string
		start string // the line before the list
		end   string // the line after it
		list  string
	}{
		{"analyzer/doc.go", "// Rules:\n//\n", "//\n", docRuleList()},
		{"README.md", "## Rules\n\n", "\n", readmeRuleTable()},
		{".golangci.yml", "description: reports unsafe process-liveness checks (", ")\n", ruleRange()},
	} {
		name := filepath.Join(repoRoot, filepath.FromSlash(tt.file))
		src := readFile(t, name)
		_, rest, ok := strings.Cut(src, tt.start)
		if !ok {
			t.Errorf("%s: no %q before the rule list", tt.file, tt.start)
			continue
		}
		i := strings.Index(rest, tt.end)
		// A list of lines ends at the first line that is tt.end.
		if strings.HasSuffix(tt.end, "\n") && strings.HasSuffix(tt.list, "\n") {
			i = strings.Index("\n"+rest, "\n"+tt.end)
		}
		if i < 0 {
			t.Errorf("%s: no %q after the rule list", tt.file, tt.end)
			continue
		}
		if got := rest[:i]; got != tt.list {
			if *update {
				at := len(src) - len(rest)
				src = src[:at] + tt.list + rest[i:]
				if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("%s: the rule list differs from analyzer.Rules (go test ./cmd/pidlint -run TestRuleLists -update)\ngot:\n%s\nwant:\n%s", tt.file, got, tt.list)
		}
	}
}
