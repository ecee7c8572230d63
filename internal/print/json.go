package print

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

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
	GOOS           []string  `json:"goos,omitempty"` // the builds that report it (Go's)
}

// JSON prints the findings as go vet -json and singlechecker -json do, one
// tree keyed by package and analyzer, {"pkg": {"pidlint": [diagnostics]}},
// with the GOOS builds that report each Go finding. A finding of another
// language, checked file by file, is keyed by its file's directory
// relative to the directory pidlint runs in, as the go command names a
// directory: "./scripts", "." for that directory itself (an absolute
// directory outside it).
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
		unit := unitOf(rep.Dir, f)
		if tree[unit] == nil {
			tree[unit] = make(map[string][]jsonDiagnostic)
		}
		tree[unit]["pidlint"] = append(tree[unit]["pidlint"], d)
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(p.W, "%s\n", data)
	return err
}

// unitOf is the key of f in -json's tree: its Unit (a Go package), or
// its file's directory relative to dir ("./scripts", "."), or absolute
// when outside dir.
func unitOf(dir string, f finding.Finding) string {
	if f.Unit != "" {
		return f.Unit
	}
	fileDir := filepath.Dir(f.Pos.File)
	switch rel := finding.Rel(dir, fileDir); rel {
	case "":
		return filepath.ToSlash(fileDir)
	case ".":
		return "."
	default:
		return "./" + rel
	}
}
