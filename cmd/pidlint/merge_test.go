package main

import (
	"go/token"
	"slices"
	"testing"
)

func at(file string, line, offset int) token.Position {
	return token.Position{Filename: file, Line: line, Column: 1, Offset: offset}
}

func probeFinding(goos string, fixes ...fix) finding {
	return finding{pos: at("p/x.go", 3, 20), end: at("p/x.go", 3, 40), rule: "PL001", category: "PL001",
		message: "PL001: kill(pid, 0) on every Unix", goos: []string{goos}, fixes: fixes}
}

func oneFix(text string) fix {
	return fix{message: "Use safeprobe.Alive", edits: []edit{{pos: at("p/x.go", 3, 20), end: at("p/x.go", 3, 40), newText: text}}}
}

// TestMergeFindings checks that builds reporting one finding give one
// finding naming every build, that agreeing fixes stay and disagreeing
// ones go.
func TestMergeFindings(t *testing.T) {
	got := mergeFindings([]finding{probeFinding("linux", oneFix("a")), probeFinding("darwin", oneFix("a")), probeFinding("freebsd", oneFix("a"))})
	if len(got) != 1 || !slices.Equal(got[0].goos, []string{"darwin", "freebsd", "linux"}) || len(got[0].fixes) != 1 {
		t.Errorf("agreeing builds: %+v", got)
	}
	got = mergeFindings([]finding{probeFinding("linux", oneFix("a")), probeFinding("darwin", oneFix("b"))})
	if len(got) != 1 || len(got[0].fixes) != 0 || !slices.Equal(got[0].goos, []string{"darwin", "linux"}) {
		t.Errorf("disagreeing fixes: %+v", got)
	}
	other := probeFinding("darwin")
	other.message = "PL001: kill(pid, 0) on darwin"
	if got = mergeFindings([]finding{probeFinding("linux"), other}); len(got) != 2 {
		t.Errorf("different messages merged: %+v", got)
	}
}

// TestFits checks which edits of different fixes can be applied together.
func TestFits(t *testing.T) {
	e := func(start, end int, text string) edit {
		return edit{pos: token.Position{Offset: start}, end: token.Position{Offset: end}, newText: text}
	}
	have := []edit{e(10, 20, "x"), e(30, 30, "import")}
	for _, tc := range []struct {
		e             edit
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
	edits := []edit{
		{pos: token.Position{Offset: off(2)}, end: token.Position{Offset: off(2)}, newText: "new\n"},
		{pos: token.Position{Offset: off(4)}, end: token.Position{Offset: off(4) + 1}, newText: "four"},
		{pos: token.Position{Offset: 9*2 + 3*5}, end: token.Position{Offset: 9*2 + 3*5 + 2}, newText: "fifteen"},
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

func TestParseGOOS(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{defaultGOOS, []string{"linux", "darwin", "windows", "freebsd"}},
		{"windows,linux", []string{"linux", "windows"}},
		{"host", []string{"linux"}},
		{"darwin", []string{"darwin"}},
		{"host,linux,darwin", []string{"linux", "darwin"}},
	} {
		got, err := parseGOOS(tc.in, "linux")
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("parseGOOS(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "beos", "linux,,mac"} {
		if _, err := parseGOOS(bad, "linux"); err == nil {
			t.Errorf("parseGOOS(%q): no error", bad)
		}
	}
}
