package print

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/pidlint/pidlint/internal/finding"
)

type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonDiagnostic struct {
	Category       string    `json:"category,omitempty"`
	Posn           string    `json:"posn"`
	End            string    `json:"end"`
	Message        string    `json:"message"`
	SuggestedFixes []jsonFix `json:"suggested_fixes,omitempty"`
	GOOS           []string  `json:"goos"` // the builds that report it
}

// JSON prints the findings as go vet -json and singlechecker -json do, one
// tree keyed by package and analyzer, {"pkg": {"pidlint": [diagnostics]}},
// with the GOOS builds that report each finding.
type JSON struct{ W io.Writer }

func (p JSON) Print(rep *finding.Report) error {
	tree := make(map[string]map[string][]jsonDiagnostic)
	for _, f := range rep.Findings {
		d := jsonDiagnostic{
			Category: f.Category,
			Posn:     fmt.Sprintf("%s:%d:%d", f.Pos.File, f.Pos.Line, f.Pos.Column),
			End:      fmt.Sprintf("%s:%d:%d", f.End.File, f.End.Line, f.End.Column),
			Message:  f.Message,
			GOOS:     f.GOOS,
		}
		for _, fx := range f.Fixes {
			jf := jsonFix{Message: fx.Message, Edits: []jsonEdit{}}
			for _, e := range fx.Edits {
				jf.Edits = append(jf.Edits, jsonEdit{e.Pos.File, e.Pos.Offset, e.End.Offset, e.New})
			}
			d.SuggestedFixes = append(d.SuggestedFixes, jf)
		}
		if tree[f.Package] == nil {
			tree[f.Package] = make(map[string][]jsonDiagnostic)
		}
		tree[f.Package]["pidlint"] = append(tree[f.Package]["pidlint"], d)
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(p.W, "%s\n", data)
	return err
}
