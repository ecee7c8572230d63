// Package python is pidlint's Python front end: the .py files (and
// python scripts without an extension) the walk finds, parsed in parallel
// with tree-sitter-python (package pyparse, plain Go), checked by the
// rules PY001..PY005 of the catalogue. Each rule follows values within a
// file - through variables, attributes of a class, helper functions and
// their callers - and reads a few files beside it for evidence that a
// module never runs on Windows. A file is parsed only when its bytes
// hold a word a rule looks for (prefilter.go).
package python

import (
	"fmt"
	"os"
	"slices"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/rules"
	"github.com/pidlint/pidlint/internal/source"
)

// FrontEnd is the Python front end.
type FrontEnd struct{}

var _ frontend.FrontEnd = (*FrontEnd)(nil)

// New returns the Python front end.
func New() *FrontEnd { return &FrontEnd{} }

// Language is Python.
func (*FrontEnd) Language() *rules.Language { return rules.Python }

// A result is what checking one file gave.
type result struct {
	findings []finding.Finding
	errs     []string
}

// Check checks in.Files, on one worker per CPU, or returns the result the
// cache kept for the same files, binary and settings.
func (fe *FrontEnd) Check(in *frontend.Input) (*frontend.Result, error) {
	l := newLoader()
	return frontend.CheckFiles(rules.Python.Name, in, func(file string) ([]finding.Finding, []string) {
		r := checkFile(l, in, file)
		return r.findings, r.errs
	}), nil
}

// checkFile checks one file. A bug of the rules on a file is that
// file's error, not the run's end.
func checkFile(l *loader, in *frontend.Input, name string) (r result) {
	short := finding.ShortPath(in.Dir, name)
	defer func() {
		if p := recover(); p != nil {
			r = result{errs: []string{fmt.Sprintf("%s: internal error, file not checked (please report it): %v", short, p)}}
		}
	}()
	data, err := os.ReadFile(name)
	if err != nil {
		return result{errs: []string{fmt.Sprintf("%s: %v", short, err)}}
	}
	if !candidate(data) {
		return result{}
	}
	f, err := l.parse(name, data)
	if err != nil {
		return result{errs: []string{fmt.Sprintf("%s: %v", short, err)}}
	}
	if line := f.syntaxError(); line > 0 {
		r.errs = append(r.errs, fmt.Sprintf("%s:%d: syntax error (the rest of the file is checked)", short, line))
	}
	c := &checker{f: dataflow{platforms{f}}, strict: in.Settings.Strict, disable: in.Settings.Disable}
	c.run()
	ds := f.directives()
	for _, rep := range c.found {
		if rules.Suppress(ds, rep.rule, f.line(rep.node)) {
			continue
		}
		fd, err := newFinding(in.Source, f, rep.rule, rep.rule, rep.msg, rep.node)
		if err != nil {
			r.errs = append(r.errs, err.Error())
			continue
		}
		r.findings = append(r.findings, fd)
	}
	for _, d := range ds {
		msg, category := d.Problem(), rules.BadIgnore
		if msg == "" && !d.File && !d.Used && !allDisabled(d.Rules, in.Settings.Disable) {
			msg, category = d.Unused(), ""
		}
		if msg == "" {
			continue
		}
		fd, err := newFindingAt(in.Source, name, d.Line, category, msg)
		if err != nil {
			r.errs = append(r.errs, err.Error())
			continue
		}
		r.findings = append(r.findings, fd)
	}
	return r
}

// allDisabled reports whether every rule is turned off for the run: a
// directive for them suppresses nothing, and is not stale for it.
func allDisabled(ids, disable []string) bool {
	for _, id := range ids {
		if !slices.Contains(disable, id) {
			return false
		}
	}
	return len(ids) > 0
}

// newFinding makes the finding of a rule at node n.
func newFinding(src *source.Cache, f *file, rule, category, msg string, n int32) (finding.Finding, error) {
	pos, err := src.Offset(f.name, int(f.t.Nodes[n].Start))
	if err != nil {
		return finding.Finding{}, err
	}
	end, err := src.Offset(f.name, int(f.t.Nodes[n].End))
	if err != nil {
		return finding.Finding{}, err
	}
	return finding.Finding{Rule: rule, Category: category, Message: msg, Pos: pos, End: end}, nil
}

// newFindingAt makes a finding about a directive on a line.
func newFindingAt(src *source.Cache, name string, line int, category, msg string) (finding.Finding, error) {
	pos, err := src.At(name, line, 1)
	if err != nil {
		return finding.Finding{}, err
	}
	return finding.Finding{Category: category, Message: msg, Pos: pos, End: pos}, nil
}
