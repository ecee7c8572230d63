// Package filter drops the findings a run does not report, each concern
// a Filter of its own, as golangci-lint's processors: test files left
// out, lines not changed since a revision, findings a baseline accepts.
package filter

import (
	"strings"

	"github.com/pidlint/pidlint/internal/finding"
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

// NoTests drops the findings in test files (-test=false): go vet
// analyzes them whatever it is asked.
type NoTests struct{}

func (NoTests) Filter(rep *finding.Report) ([]finding.Finding, error) {
	var kept []finding.Finding
	for _, f := range rep.Findings {
		if !strings.HasSuffix(f.Pos.File, "_test.go") {
			kept = append(kept, f)
		}
	}
	return kept, nil
}
