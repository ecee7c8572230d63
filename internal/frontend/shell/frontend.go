// Package shell is pidlint's shell front end: sh, bash, dash, ksh and
// bats scripts, parsed by mvdan.cc/sh (the dialect from the "#!" line),
// and the PIDs they read from PID files followed through variables,
// loops, function arguments and function output to the commands that
// probe, signal or test them (rules SH001..SH003 of the catalogue). Its
// parser is imported here alone: go vet, golangci-lint and nogo, which
// import the analyzer, never load it.
package shell

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"

	"mvdan.cc/sh/v3/syntax"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/rules"
	"github.com/pidlint/pidlint/internal/source"
)

// FrontEnd is the shell front end.
type FrontEnd struct{}

var _ frontend.FrontEnd = FrontEnd{}

// New returns the shell front end.
func New() FrontEnd { return FrontEnd{} }

// Language is shell.
func (FrontEnd) Language() *rules.Language { return rules.Shell }

// Check checks in's files, several at a time, or returns the result the
// cache kept for the same files, binary and settings. A file that does not
// parse is one error, "file:line: syntax error: …", and the others are
// checked.
func (FrontEnd) Check(in *frontend.Input) (*frontend.Result, error) {
	return frontend.CheckFiles(rules.Shell.Name, in, func(file string) ([]finding.Finding, []string) {
		r := checkFile(in, file)
		if r.err != "" {
			return r.findings, []string{r.err}
		}
		return r.findings, nil
	}), nil
}

// A fileResult is what one file gave.
type fileResult struct {
	findings []finding.Finding
	err      string
}

// checkFile checks one file: nothing unless its text mentions what a
// rule looks at (the pre-filter), else parsed and analyzed.
func checkFile(in *frontend.Input, name string) fileResult {
	rel := relative(in.Dir, name)
	if !in.Settings.Tests && rules.IsTest(filepath.ToSlash(rel)) {
		return fileResult{} // the NoTests filter would drop its findings
	}
	f, err := in.Source.File(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fileResult{err: rel + ": " + err.Error()}
	}
	if !mayReport(f.Data) {
		return fileResult{}
	}
	file, err := parse(name, f.Data)
	switch {
	case errors.Is(err, errNotShell):
		return fileResult{}
	case err != nil:
		return fileResult{err: syntaxError(rel, err)}
	}
	var out []finding.Finding
	ds, at := directives(file)
	for _, r := range analyze(file).reports(in.Settings.Strict) {
		if slices.Contains(in.Settings.Disable, r.sink.rule) {
			continue
		}
		line := int(r.sink.node.Pos().Line())
		if rules.Suppress(ds, r.sink.rule, line) {
			continue
		}
		out = append(out, newFinding(f, r.sink.node.Pos(), r.sink.node.End(), r.sink.rule, r.category(), r.message))
	}
	for i, d := range ds {
		switch {
		case d.Problem() != "":
			out = append(out, newFinding(f, at[i], at[i], "", rules.BadIgnore, d.Problem()))
		case !d.Used && !d.File:
			out = append(out, newFinding(f, at[i], at[i], "", "", d.Unused()))
		}
	}
	return fileResult{findings: out}
}

// mayReportWords are what a file must mention for a rule to report in
// it: the pre-filter that keeps most files from being parsed. It is a
// byte search for skipping files, not a reading of them.
var mayReportWords = [][]byte{[]byte("kill"), []byte("pid"), []byte("PID"), []byte("Pid"), []byte("/proc"), []byte("ps -"), []byte("ps $"), []byte(`ps "$`)}

func mayReport(data []byte) bool {
	return slices.ContainsFunc(mayReportWords, func(w []byte) bool { return bytes.Contains(data, w) })
}

// newFinding makes a finding at the parser's positions (byte offsets).
func newFinding(f *source.File, pos, end syntax.Pos, rule, category, msg string) finding.Finding {
	fd := finding.Finding{Rule: rule, Category: category, Message: msg}
	fd.Pos, _ = f.Offset(int(pos.Offset()))
	var err error
	if fd.End, err = f.Offset(int(end.Offset())); err != nil {
		fd.End = fd.Pos
	}
	return fd
}

func relative(dir, name string) string {
	if rel, err := filepath.Rel(dir, name); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return name
}
