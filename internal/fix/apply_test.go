package fix

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/source"
)

// TestApplyFixes applies fixes the way the analyzer writes them: a fix
// whose import insertion sits at the start of its own deletion of an
// unused import, a second fix carrying the same import edits, and a third
// that overlaps the first and is left for a hand.
func TestApplyFixes(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.go")
	src := "import (\n\t\"syscall\"\n)\n\nvar a = kill(1)\nvar b = kill(2)\n"
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	off := func(s string) int { return bytes.Index([]byte(src), []byte(s)) }
	at := func(o int) finding.Position { return finding.Position{File: name, Offset: o} }
	imports := []finding.Edit{
		{Pos: at(off("\t\"syscall\"")), End: at(off("\t\"syscall\"")), New: "\t\"safeprobe\"\n"},
		{Pos: at(off("\t\"syscall\"")), End: at(off(")\n\nvar")), New: ""},
	}
	call := func(s, with string) finding.Edit {
		return finding.Edit{Pos: at(off(s)), End: at(off(s) + len(s)), New: with}
	}
	findings := []finding.Finding{
		{Pos: at(off("kill(1)")), Message: "one", Fixes: []finding.Fix{{Message: "Use safeprobe.Alive", Edits: append(imports[:2:2], call("kill(1)", "alive(1)"))}}},
		{Pos: at(off("kill(2)")), Message: "two", Fixes: []finding.Fix{{Message: "Use safeprobe.Alive", Edits: append(imports[:2:2], call("kill(2)", "alive(2)"))}}},
		{Pos: at(off("kill(1)")), Message: "three", Fixes: []finding.Fix{{Message: "Other", Edits: []finding.Edit{call("kill(1)", "other(1)")}}}},
		{Pos: at(off("kill(2)")), Message: "no fix"},
	}
	res, err := Apply(findings, source.NewCache(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "import (\n\t\"safeprobe\"\n)\n\nvar a = alive(1)\nvar b = alive(2)\n"
	if got, _ := os.ReadFile(name); string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	if res.Fixed != 2 || res.Files != 1 || len(res.Left) != 2 || res.Left[0].Message != "three" || res.Left[1].Message != "no fix" {
		t.Errorf("result: fixed %d in %d files, left %v", res.Fixed, res.Files, res.Left)
	}
	if len(res.Notes) != 1 {
		t.Errorf("notes %q, want one for the overlapping fix", res.Notes)
	}
}

// TestFits checks which edits of different fixes can be applied together.
func TestFits(t *testing.T) {
	e := func(start, end int, text string) finding.Edit {
		return finding.Edit{Pos: finding.Position{Offset: start}, End: finding.Position{Offset: end}, New: text}
	}
	have := []finding.Edit{e(10, 20, "x"), e(30, 30, "import")}
	for _, tc := range []struct {
		e             finding.Edit
		dup, conflict bool
	}{
		{e(10, 20, "x"), true, false},
		{e(30, 30, "import"), true, false},
		{e(15, 25, "y"), false, true},
		{e(12, 12, "y"), false, true},     // insertion inside a replacement
		{e(30, 30, "other"), false, true}, // two insertions at one offset
		{e(20, 20, "y"), false, false},    // insertion where a replacement ends
		{e(25, 30, "y"), false, false},
		{e(0, 10, ""), false, false},
	} {
		dup, conflict := fits(have, tc.e)
		if dup != tc.dup || conflict != tc.conflict {
			t.Errorf("fits(%v) = %v, %v; want %v, %v", tc.e, dup, conflict, tc.dup, tc.conflict)
		}
	}
}

// TestUnifiedDiff checks -diff's hunks: context, merged nearby edits and
// line numbers after a change that adds lines.
func TestUnifiedDiff(t *testing.T) {
	src := []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n")
	off := func(line int) int { return 2 * (line - 1) } // lines 1..9 are 2 bytes
	at := func(off int) finding.Position { return finding.Position{Offset: off} }
	edits := []finding.Edit{
		{Pos: at(off(2)), End: at(off(2)), New: "new\n"},
		{Pos: at(off(4)), End: at(off(4) + 1), New: "four"},
		{Pos: at(9*2 + 3*5), End: at(9*2 + 3*5 + 2), New: "fifteen"},
	}
	want := `--- f.go
+++ f.go
@@ -1,7 +1,8 @@
 1
-2
+new
+2
 3
-4
+four
 5
 6
 7
@@ -12,7 +13,7 @@
 12
 13
 14
-15
+fifteen
 16
 17
 18
`
	if got := unifiedDiff("f.go", src, edits); got != want {
		t.Errorf("unifiedDiff:\n%s\nwant:\n%s", got, want)
	}
	if got, want := string(applyEdits(src[:off(5)], edits[:2])), "1\nnew\n2\n3\nfour\n"; got != want {
		t.Errorf("applyEdits = %q, want %q", got, want)
	}
}

func TestSemverLess(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		less bool
	}{
		{"v0.48.0", "v0.49.0", true},
		{"v0.49.0", "v0.49.0", false},
		{"v0.50.0", "v0.49.0", false},
		{"v0.9.0", "v0.49.0", true},
		{"v0.49.1-0.20260101000000-abcdefabcdef", "v0.49.1", true},
		{"v0.49.1-0.20260101000000-abcdefabcdef", "v0.49.0", false},
		{"v1.0.0", "v0.99.0", false},
	} {
		if got := semverLess(tc.a, tc.b); got != tc.less {
			t.Errorf("semverLess(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
}
