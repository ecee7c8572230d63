package filter

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/source"
)

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBaselineFilter checks the matching itself: an entry hides one
// finding with its file, rule and code, whatever the line and spacing;
// two entries hide two; a third finding of the same code is new.
func TestBaselineFilter(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nfunc f() {\n\tkill(pid,  0)\n\tkill(pid, 0)\n\tkill(pid,\n\t\t0)\n\tkill(other, 0)\n}\n"
	name := filepath.Join(dir, "p.go")
	write(t, name, src)
	cache := source.NewCache()
	at := func(line, col, endLine, endCol int, rule string) finding.Finding {
		pos, err := cache.At(name, line, col)
		if err != nil {
			t.Fatal(err)
		}
		end := finding.Position{}
		if endLine > 0 {
			if end, err = cache.At(name, endLine, endCol); err != nil {
				t.Fatal(err)
			}
		}
		return finding.Finding{Pos: pos, End: end, Rule: rule, Message: rule + ": m"}
	}
	findings := []finding.Finding{
		at(4, 2, 4, 15, "PL001"),
		at(5, 2, 5, 14, "PL001"),
		at(6, 2, 7, 5, "PL001"),
		at(8, 2, 8, 16, "PL001"),
		at(8, 2, 0, 0, ""), // a report about a directive: no end
	}
	b := &Baseline{name: "b", src: cache, entries: []baselineEntry{
		{File: "p.go", Rule: "PL001", Code: "kill(pid, 0)"},
		{File: "p.go", Rule: "PL001", Code: "kill(pid, 0)"},
		{File: "p.go", Rule: "PL002", Code: "kill(other, 0)"},
		{File: "p.go", Rule: "pidlint:ignore", Code: "kill(other, 0)"},
		{File: "gone.go", Rule: "PL001", Code: "kill(pid, 0)"},
		{File: "elsewhere.go", Rule: "PL001", Code: "kill(pid, 0)"},
	}}
	write(t, filepath.Join(dir, "elsewhere.go"), "package p\n")
	elsewhere := filepath.Join(dir, "sub")
	write(t, filepath.Join(elsewhere, "elsewhere.go"), "package p\n")
	b.entries = append(b.entries, baselineEntry{File: "sub/elsewhere.go", Rule: "PL001", Code: "kill(pid, 0)"})
	b.Analyzed = func(file string) bool { return filepath.Dir(file) == dir }
	rep := &finding.Report{Root: dir, Findings: findings}
	fresh, err := b.Filter(rep)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fresh {
		got = append(got, strconv.Itoa(f.Pos.Line)+" "+f.Rule)
	}
	if want := []string{"6 PL001", "8 PL001"}; !slices.Equal(got, want) {
		t.Errorf("fresh findings %v, want %v", got, want)
	}
	var staleFiles []string
	for _, n := range rep.Notes {
		if _, entry, ok := strings.Cut(n, "stale entry (its finding is gone): "); ok {
			file, rest, _ := strings.Cut(entry, ": ")
			rule, _, _ := strings.Cut(rest, ": ")
			staleFiles = append(staleFiles, file+" "+rule)
		}
	}
	// elsewhere.go is in the analyzed directory, with the rest of p;
	// sub/elsewhere.go is not analyzed, so its entry is kept.
	if want := []string{"p.go PL002", "gone.go PL001", "elsewhere.go PL001"}; !slices.Equal(staleFiles, want) {
		t.Errorf("stale entries %v, want %v", staleFiles, want)
	}
}
