package filter

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/source"
)

// TestNoTests checks -test=false over every language's test files, with
// directories counted from the repository's top: a tests directory above
// the repository does not make its files tests.
func TestNoTests(t *testing.T) {
	root := filepath.FromSlash("/home/tests/repo")
	var rep finding.Report
	rep.Root = root
	for _, name := range []string{
		"p/p.go", "p/p_test.go",
		"daemon.py", "pkg/test_daemon.py", "pkg/daemon_test.py", "tests/helpers.py", "src/tests/unit/fixtures.py",
		"bin/start.sh", "test/daemon.bats", "tests/run.sh",
	} {
		rep.Findings = append(rep.Findings, finding.Finding{Pos: finding.Position{File: filepath.Join(root, filepath.FromSlash(name)), Line: 1}})
	}
	kept, err := NoTests{}.Filter(&rep)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range kept {
		got = append(got, finding.Rel(root, f.Pos.File))
	}
	if want := []string{"p/p.go", "daemon.py", "bin/start.sh", "tests/run.sh"}; !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
}

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
