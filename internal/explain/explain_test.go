package explain

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/rules"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md and the rule lists")

// repoRoot is the pidlint module's directory.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

// TestRulesDoc fails when docs/rules.md is not what pidlint -explain
// -markdown prints from the catalogue.
func TestRulesDoc(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf); err != nil {
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
		t.Fatalf("docs/rules.md is stale; run: %s (or go test ./internal/explain -run TestRulesDoc -update)", Regenerate)
	}

	// Each rule has its anchor, title and examples.
	doc := buf.String()
	for _, r := range rules.All() {
		row := "(#" + strings.ToLower(r.ID) + ") | " + r.Name + " | " + escape(r.Title) + " | " + fixColumn(r) + " |"
		for _, s := range []string{`<a id="` + strings.ToLower(r.ID) + `"></a>`, "## " + r.ID + " " + r.Name, row, r.Bad, r.Good} {
			if !strings.Contains(doc, s) {
				t.Errorf("docs/rules.md: no %q", s)
			}
		}
	}
}

// TestRuleLists fails when a rule list kept outside the catalogue differs
// from it: doc.go's list (the analyzer's Doc), README.md's table and
// .golangci.yml's description. With -update it rewrites them.
func TestRuleLists(t *testing.T) {
	for _, tt := range []struct {
		file  string
		start string // the line before the list
		end   string // the line after it
		list  string
	}{
		{"analyzer/doc.go", "// Rules:\n//\n", "//\n", DocRuleList()},
		{"README.md", "## Rules\n\n", "\n", ReadmeRuleTable()},
		{".golangci.yml", "description: reports unsafe process-liveness checks (", ")\n", GoRuleRange()},
	} {
		name := filepath.Join(repoRoot, filepath.FromSlash(tt.file))
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
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
			t.Errorf("%s: the rule list differs from the catalogue (go test ./internal/explain -run TestRuleLists -update)\ngot:\n%s\nwant:\n%s", tt.file, got, tt.list)
		}
	}
}
