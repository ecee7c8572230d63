// Package finding is the one type every stage of a pidlint run takes and
// returns, whatever the language: a Finding is made once, by the front end
// that checks its file (for Go, from go vet's JSON or from an analysis
// pass in this process), with its positions resolved against the user's
// files; filters drop findings, and the fix and print stages read them.
package finding

import "fmt"

// A Finding is one diagnostic of a run.
type Finding struct {
	Rule     string // the rule's ID, or "" for a report about an ignore directive
	Category string // the diagnostic's category: the rule's ID, "raw-probe", or "bad-ignore" for a bad directive
	Message  string
	Pos, End Position
	// Unit is what -json groups the finding under: for Go, the package
	// that reported it first, as go vet names it ("p", "p [p.test]");
	// "" for a file checked on its own (another language), which -json
	// groups by its directory.
	Unit  string
	GOOS  []string // the GOOS builds that report it, sorted; none for a language without builds
	Fixes []Fix
}

// A Position is a place in a user's source file, in every unit an output
// needs.
type Position struct {
	File     string // absolute file name
	Offset   int    // byte offset from the start of the file
	Line     int    // from 1
	Column   int    // from 1, in bytes, as go vet prints it
	Column16 int    // from 1, in UTF-16 code units, as SARIF counts by default
}

// IsValid reports whether p names a line of a file.
func (p Position) IsValid() bool { return p.File != "" && p.Line > 0 }

// String is "file:line:column", as go vet prints a position.
func (p Position) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Column == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// Short is String with the file name relative to dir, as go vet prints
// positions relative to the directory it runs in.
func (p Position) Short(dir string) string {
	p.File = ShortPath(dir, p.File)
	return p.String()
}

// A Fix is a suggested fix: edits to apply together.
type Fix struct {
	Message string
	Edits   []Edit
}

// An Edit replaces the text from Pos to End (offsets in one file) with New.
type Edit struct {
	Pos, End Position
	New      string
}

// A Report is what a run found, and what it could not analyze.
type Report struct {
	Dir      string // the directory the run works in: text names files relative to it
	Root     string // the repository's top: SARIF and GitHub annotations name files relative to it
	Findings []Finding
	Errors   []string // packages that failed to load or analyze, and other errors
	Notes    []string // what a build left out and why, dropped fixes: said once, not failures
}
