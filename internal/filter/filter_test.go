package filter

import (
	"path/filepath"
	"testing"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/source"
)

// TestBaselineOtherLanguage checks a baseline round trip for a finding in
// a shell file: written, read back, it hides the finding; an edit above
// it does not revive it.
func TestBaselineOtherLanguage(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "bin", "stop.sh")
	write(t, name, "#!/bin/sh\nkill \"$(cat /run/d.pid)\"\n")
	cache := source.NewCache()
	at := func(line, col int) finding.Position {
		pos, err := cache.At(name, line, col)
		if err != nil {
			t.Fatal(err)
		}
		return pos
	}
	f := finding.Finding{Rule: "PL007", Category: "PL007", Message: "PL007: m", Pos: at(2, 1), End: at(2, 25)}
	base := filepath.Join(dir, "pidlint.baseline")
	if err := WriteBaseline(base, dir, []finding.Finding{f}, cache); err != nil {
		t.Fatal(err)
	}
	write(t, name, "#!/bin/sh\nset -e\nkill \"$(cat /run/d.pid)\"\n")
	cache = source.NewCache()
	b, err := ReadBaseline(base, cache)
	if err != nil {
		t.Fatal(err)
	}
	f = finding.Finding{Rule: "PL007", Category: "PL007", Message: "PL007: m", Pos: at(3, 1), End: at(3, 25)}
	rep := &finding.Report{Root: dir, Findings: []finding.Finding{f}}
	kept, err := b.Filter(rep)
	if err != nil || len(kept) != 0 || len(rep.Notes) != 0 {
		t.Errorf("kept %v, notes %q, err %v; want the finding hidden", kept, rep.Notes, err)
	}
}
