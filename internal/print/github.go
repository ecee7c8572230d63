package print

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/pidlint/pidlint/internal/finding"
)

// GitHub prints GitHub Actions workflow commands: each finding an error
// annotation on its line, "::error file=…,line=…,col=…,title=…::message",
// with file names relative to the report's root (the repository checkout).
type GitHub struct{ W io.Writer }

func (p GitHub) Print(rep *finding.Report) error {
	for _, f := range rep.Findings {
		file := cmp.Or(finding.Rel(rep.Root, f.Pos.File), f.Pos.File)
		title := cmp.Or(f.Rule, "pidlint")
		_, err := fmt.Fprintf(p.W, "::error file=%s,line=%d,col=%d,title=%s::%s\n",
			escapeProperty(file), f.Pos.Line, f.Pos.Column, escapeProperty(title), escapeData(f.Message))
		if err != nil {
			return err
		}
	}
	return nil
}

// escapeData escapes a workflow command's message: %, CR and LF.
var escapeData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace

// escapeProperty escapes a workflow command's property value: as a
// message, and also the ':' and ',' that delimit properties.
var escapeProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace
