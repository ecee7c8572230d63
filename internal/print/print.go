// Package print writes a report's findings in the formats users read:
// text as go vet prints it, go vet's JSON, a SARIF log for code scanning
// dashboards and GitHub Actions annotations, each a Printer.
package print

import (
	"fmt"
	"io"

	"github.com/pidlint/pidlint/internal/finding"
)

// A Printer writes the findings of a report.
type Printer interface {
	Print(rep *finding.Report) error
}

// Formats are the names New takes.
var Formats = []string{"text", "json", "sarif", "github"}

// New returns the printer of a format: text on stderr, as go vet prints;
// the others on stdout, for tools to read.
func New(format string, stdout, stderr io.Writer) (Printer, error) {
	switch format {
	case "text":
		return Text{stderr}, nil
	case "json":
		return JSON{stdout}, nil
	case "sarif":
		return SARIF{stdout}, nil
	case "github":
		return GitHub{stdout}, nil
	}
	return nil, fmt.Errorf("unknown format %q", format)
}

// Text prints each finding as go vet does: file:line:col: message, the
// file relative to the working directory.
type Text struct{ W io.Writer }

func (p Text) Print(rep *finding.Report) error {
	for _, f := range rep.Findings {
		if _, err := fmt.Fprintf(p.W, "%s: %s\n", f.Pos.Short(rep.Dir), f.Message); err != nil {
			return err
		}
	}
	return nil
}
