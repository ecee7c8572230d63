package main

// This file is -json: the findings in the form go vet -json and
// singlechecker -json print, one tree keyed by package and analyzer, with
// the GOOS builds that report each finding.

import (
	"encoding/json"
	"fmt"
	"io"
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

// writeJSON writes rep's findings as {"pkg": {"pidlint": [diagnostics]}}.
func writeJSON(w io.Writer, rep *report) error {
	tree := make(map[string]map[string][]jsonDiagnostic)
	for _, f := range rep.findings {
		d := jsonDiagnostic{
			Category: f.category,
			Posn:     fmt.Sprintf("%s:%d:%d", f.pos.Filename, f.pos.Line, f.pos.Column),
			End:      fmt.Sprintf("%s:%d:%d", f.end.Filename, f.end.Line, f.end.Column),
			Message:  f.message,
			GOOS:     f.goos,
		}
		for _, fx := range f.fixes {
			jf := jsonFix{Message: fx.message, Edits: []jsonEdit{}}
			for _, e := range fx.edits {
				jf.Edits = append(jf.Edits, jsonEdit{e.pos.Filename, e.pos.Offset, e.end.Offset, e.newText})
			}
			d.SuggestedFixes = append(d.SuggestedFixes, jf)
		}
		if tree[f.pkg] == nil {
			tree[f.pkg] = make(map[string][]jsonDiagnostic)
		}
		tree[f.pkg]["pidlint"] = append(tree[f.pkg]["pidlint"], d)
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
