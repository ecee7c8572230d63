package main

// This file writes findings as GitHub Actions workflow commands
// (-format=github): each becomes an error annotation on its line.

import (
	"fmt"
	"io"
	"strings"
)

// writeGitHub writes one "::error file=…,line=…,col=…,title=…::message"
// command per finding, with file names relative to the report's root (the
// repository checkout).
func writeGitHub(w io.Writer, rep *report) error {
	for _, f := range rep.findings {
		file := relPath(rep.root, f.pos.Filename)
		if file == "" {
			file = f.pos.Filename
		}
		title := f.rule
		if title == "" {
			title = "pidlint"
		}
		_, err := fmt.Fprintf(w, "::error file=%s,line=%d,col=%d,title=%s::%s\n",
			escapeProperty(file), f.pos.Line, f.pos.Column, escapeProperty(title), escapeData(f.message))
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
