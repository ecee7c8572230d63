// Package frontend is the seam between the pipeline and the languages
// pidlint checks. A FrontEnd checks one language's files and returns what
// its rules report as findings (package finding); everything after it -
// filters, fixes, printers, the exit code - reads findings only, whatever
// their language. A front end imports of the pipeline only this package,
// the catalogue (rules), finding and source, and the command knowledge
// every language shares (shellcmd).
//
// The command lists the front ends it has (one per language of
// rules.Languages) and Run runs those a run selects: the walk finds each
// language's files under the directories the patterns name, and a front
// end with nothing to check is not started. Go's front end (package
// golang) resolves the patterns itself, as Go packages.
package frontend

import (
	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/rules"
	"github.com/pidlint/pidlint/internal/source"
)

// A FrontEnd checks the files of one language.
type FrontEnd interface {
	// Language is the language it checks: its files, test files and
	// comment syntax, and (rules.Of) its rules.
	Language() *rules.Language
	// Check checks in's files, or for a language whose front end resolves
	// the patterns itself (rules.Language.Packages) in's patterns. A file
	// or package it cannot check is in the result's Errors, named, and
	// the others are checked; an error stops the run.
	Check(in *Input) (*Result, error)
}

// Input is what a run gives a front end.
type Input struct {
	Dir string // the directory the run works in, absolute
	// Patterns are, for a language that resolves patterns itself, the
	// command line's patterns but those naming nothing on disk or files of
	// another language; nil for the others.
	Patterns []string
	// Files are the language's files the walk found, absolute and sorted,
	// each once; nil for a language that resolves patterns itself.
	Files    []string
	Settings Settings
	Source   *source.Cache // the files as read once for every stage
}

// Settings are what the rules report, in every language.
type Settings struct {
	Strict  bool     // also report raw probes (category rules.RawProbe)
	Disable []string // rule IDs not to report (of any language)
	Tests   bool     // also check test files (the NoTests filter drops what a front end reports in them anyway)
	// Debug: say, as notes, what the analysis skips and why (-flow-debug).
	Debug bool
}

// A Result is what a front end found.
type Result struct {
	// Findings are its rules' findings, and its reports about ignore
	// directives (rules.Directive), positions resolved (source.Cache).
	Findings []finding.Finding
	// Errors are the files or packages it could not check, each naming
	// it and the problem, and other errors: the run reports them and
	// exits 1.
	Errors []string
	Notes  []string // what the user should know that is no failure
	// Checked is false when it found nothing to check: no file of its
	// language under the patterns.
	Checked bool
	// Analyzed reports whether it checked the file (a baseline's entry
	// for a file checked that matches no finding is stale); nil for none.
	Analyzed func(file string) bool
}
