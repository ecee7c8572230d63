// Package filter drops the findings a run does not report, each concern
// a Filter of its own, as golangci-lint's processors: test files left
// out, lines not changed since a revision, findings a baseline accepts.
package filter

import (
	"cmp"
	"path/filepath"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/rules"
)

// A Filter decides which of a report's findings stay.
type Filter interface {
	// Filter returns the findings of rep to keep. It may add notes to
	// rep: what the user should know of what it dropped.
	Filter(rep *finding.Report) ([]finding.Finding, error)
}

// Apply runs the filters over rep in order.
func Apply(rep *finding.Report, filters ...Filter) error {
	for _, f := range filters {
		kept, err := f.Filter(rep)
		if err != nil {
			return err
		}
		rep.Findings = kept
	}
	return nil
}

// NoTests drops the findings in test files (-test=false), of every
// language (rules.IsTest: _test.go, test_*.py, *_test.py, .py files under
// tests/, *.bats): go vet analyzes Go's whatever it is asked. A file's
// directories count from the repository's top (the report's root).
type NoTests struct{}

func (NoTests) Filter(rep *finding.Report) ([]finding.Finding, error) {
	var kept []finding.Finding
	for _, f := range rep.Findings {
		rel := cmp.Or(finding.Rel(rep.Root, f.Pos.File), filepath.Base(f.Pos.File))
		if !rules.IsTest(rel) {
			kept = append(kept, f)
		}
	}
	return kept, nil
}
