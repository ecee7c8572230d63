package finding

import (
	"slices"
	"testing"
)

func at(file string, line, offset int) Position {
	return Position{File: file, Line: line, Column: 1, Offset: offset}
}

func probeFinding(goos string, fixes ...Fix) Finding {
	return Finding{Pos: at("p/x.go", 3, 20), End: at("p/x.go", 3, 40), Rule: "PL001", Category: "PL001",
		Message: "PL001: kill(pid, 0) on every Unix", GOOS: []string{goos}, Fixes: fixes}
}

func oneFix(text string) Fix {
	return Fix{Message: "Use safeprobe.Alive", Edits: []Edit{{Pos: at("p/x.go", 3, 20), End: at("p/x.go", 3, 40), New: text}}}
}

// TestMergeFindings checks that builds reporting one finding give one
// finding naming every build, that agreeing fixes stay and disagreeing
// ones go.
func TestMergeFindings(t *testing.T) {
	got := Merge([]Finding{probeFinding("linux", oneFix("a")), probeFinding("darwin", oneFix("a")), probeFinding("freebsd", oneFix("a"))})
	if len(got) != 1 || !slices.Equal(got[0].GOOS, []string{"darwin", "freebsd", "linux"}) || len(got[0].Fixes) != 1 {
		t.Errorf("agreeing builds: %+v", got)
	}
	got = Merge([]Finding{probeFinding("linux", oneFix("a")), probeFinding("darwin", oneFix("b"))})
	if len(got) != 1 || len(got[0].Fixes) != 0 || !slices.Equal(got[0].GOOS, []string{"darwin", "linux"}) {
		t.Errorf("disagreeing fixes: %+v", got)
	}
	other := probeFinding("darwin")
	other.Message = "PL001: kill(pid, 0) on darwin"
	if got = Merge([]Finding{probeFinding("linux"), other}); len(got) != 2 {
		t.Errorf("different messages merged: %+v", got)
	}
}
