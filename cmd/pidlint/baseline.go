package main

// This file is the baseline: -write-baseline=FILE records the findings a
// team accepts when it adopts pidlint, -baseline=FILE reports only the
// others. An entry names a finding by file, rule and the text of the code
// it flags, not by line, so it survives edits above it; an entry whose
// code is gone is stale, and said so.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// baselineVersion is the version of the baseline file format.
const baselineVersion = 1

// A baselineFile is the JSON of a baseline.
type baselineFile struct {
	Version  int             `json:"pidlint_baseline"`
	Comment  string          `json:"comment,omitempty"`
	Findings []baselineEntry `json:"findings"`
}

// A baselineEntry is one accepted finding. File, Rule and Code identify
// it; Message is for the reader.
type baselineEntry struct {
	File    string `json:"file"` // relative to the report's root, with forward slashes
	Rule    string `json:"rule"` // PL00N, or "pidlint:ignore" for a report about a directive
	Code    string `json:"code"` // the flagged code, its spaces collapsed
	Message string `json:"message,omitempty"`
}

func (e baselineEntry) key() baselineEntry {
	e.Message = ""
	return e
}

// A baseline is a read baseline file.
type baseline struct {
	name    string
	entries []baselineEntry
}

// readBaseline reads and checks the baseline file name.
func readBaseline(name string) (*baseline, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("baseline: %v", err)
	}
	var f baselineFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("baseline %s is corrupt: %s; rewrite it with pidlint -write-baseline=%[1]s ./...", name, jsonErrorAt(data, err))
	}
	if f.Version != baselineVersion {
		return nil, fmt.Errorf("baseline %s is corrupt: pidlint_baseline is %d, want %d; rewrite it with pidlint -write-baseline=%[1]s ./...", name, f.Version, baselineVersion)
	}
	for i, e := range f.Findings {
		if e.File == "" || e.Rule == "" || e.Code == "" {
			return nil, fmt.Errorf("baseline %s is corrupt: finding %d lacks a file, rule or code; rewrite it with pidlint -write-baseline=%[1]s ./...", name, i+1)
		}
	}
	return &baseline{name: name, entries: f.Findings}, nil
}

// jsonErrorAt describes a decoding error with the line it is on.
func jsonErrorAt(data []byte, err error) string {
	var offset int64 = -1
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		offset = syntax.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	case errors.Is(err, io.EOF):
		return "the file is empty"
	}
	if offset < 0 || offset > int64(len(data)) {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:offset], []byte("\n"))
	return fmt.Sprintf("line %d: %v", line, err)
}

// writeBaseline records findings, named relative to root, in the file
// name.
func writeBaseline(name, root string, findings []finding) error {
	f := baselineFile{
		Version:  baselineVersion,
		Comment:  "Findings accepted when adopting pidlint: pidlint -baseline=FILE reports only the others. Entries match by file, rule and code, not line.",
		Findings: []baselineEntry{},
	}
	src := make(sourceCache)
	for _, fd := range findings {
		e, err := entryOf(root, fd, src)
		if err != nil {
			return err
		}
		f.Findings = append(f.Findings, e)
	}
	slices.SortFunc(f.Findings, func(a, b baselineEntry) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message))
	})
	data, err := json.MarshalIndent(f, "", "\t")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(name, append(data, '\n')); err != nil {
		return fmt.Errorf("baseline: %v", err)
	}
	return nil
}

// filter returns the findings the baseline does not hold, and its entries
// that matched no finding in a file that was analyzed (analyzed reports
// whether a file, relative to root, was) or that no longer exists: the
// code they name was fixed or removed.
func (b *baseline) filter(root string, findings []finding, analyzed func(file string) bool) (fresh []finding, stale []baselineEntry, err error) {
	left := make(map[baselineEntry]int)
	for _, e := range b.entries {
		left[e.key()]++
	}
	src := make(sourceCache)
	for _, f := range findings {
		e, err := entryOf(root, f, src)
		if err != nil {
			return nil, nil, err
		}
		if k := e.key(); left[k] > 0 {
			left[k]--
			continue
		}
		fresh = append(fresh, f)
	}
	for _, e := range b.entries {
		k := e.key()
		if left[k] == 0 {
			continue
		}
		if _, err := os.Stat(joinRoot(root, e.File)); analyzed(e.File) || errors.Is(err, os.ErrNotExist) {
			left[k]--
			stale = append(stale, e)
		}
	}
	return fresh, stale, nil
}

// printStale tells the user which entries of the baseline named no
// finding any more.
func (b *baseline) printStale(w io.Writer, stale []baselineEntry) {
	for _, e := range stale {
		fmt.Fprintf(w, "pidlint: baseline %s: stale entry (its finding is gone): %s: %s: %s\n", b.name, e.File, e.Rule, e.Code)
	}
	if len(stale) > 0 {
		fmt.Fprintf(w, "pidlint: pidlint -write-baseline=%s ./... rewrites the baseline without them\n", b.name)
	}
}

// entryOf returns the baseline entry for f.
func entryOf(root string, f finding, src sourceCache) (baselineEntry, error) {
	data, err := src.read(f.pos.Filename)
	if err != nil {
		return baselineEntry{}, fmt.Errorf("baseline: %v", err)
	}
	file := relPath(root, f.pos.Filename)
	if file == "" {
		file = f.pos.Filename
	}
	rule := cmp.Or(f.rule, "pidlint:ignore")
	return baselineEntry{File: file, Rule: rule, Code: spanText(data, f.pos, f.end), Message: f.message}, nil
}

// spanText returns the code from pos to end in src with each run of
// spaces made one, or the line of pos when the span is empty.
func spanText(src []byte, pos, end token.Position) string {
	start := offsetOf(src, pos.Line, pos.Column)
	stop := offsetOf(src, end.Line, end.Column)
	if start < 0 {
		return ""
	}
	if stop <= start {
		stop = start + bytes.IndexByte(src[start:], '\n')
		if stop < start {
			stop = len(src)
		}
		start = bytes.LastIndexByte(src[:start], '\n') + 1
	}
	return strings.Join(strings.Fields(string(src[start:stop])), " ")
}

// offsetOf returns the byte offset of line and column (both from 1, the
// column in bytes) in src, or -1.
func offsetOf(src []byte, line, col int) int {
	if line < 1 || col < 1 {
		return -1
	}
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	if off+col-1 > len(src) {
		return -1
	}
	return off + col - 1
}

// joinRoot returns the file name of file, relative to root.
func joinRoot(root, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(root, filepath.FromSlash(file))
}

// A sourceCache reads each file once.
type sourceCache map[string][]byte

func (c sourceCache) read(name string) ([]byte, error) {
	if b, ok := c[name]; ok {
		return b, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	c[name] = b
	return b, nil
}

// writeBaseline records the run's findings in -write-baseline's file. A
// run with errors writes nothing: its findings are incomplete.
func (d *driver) writeBaseline(opts *options, rep *report) int {
	if len(rep.errors) > 0 {
		fmt.Fprintf(d.stderr, "pidlint: not writing baseline %s: some packages failed to load or analyze\n", opts.writeBaseline)
		return exitError
	}
	if err := writeBaseline(opts.writeBaseline, rep.root, rep.findings); err != nil {
		fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
		return exitError
	}
	fmt.Fprintf(d.stderr, "pidlint: wrote %d findings to baseline %s\n", len(rep.findings), opts.writeBaseline)
	return exitClean
}

// applyBaseline leaves in rep the findings base does not hold, and reports
// base's stale entries: those in a package the run analyzed (or in a file
// gone) whose finding is no longer there.
func (d *driver) applyBaseline(base *baseline, opts *options, rep *report) error {
	var dirs map[string]bool // the analyzed packages' directories, listed when needed
	analyzed := func(file string) bool {
		if dirs == nil {
			dirs = make(map[string]bool)
			pkgs, err := d.listPackages(opts, opts.goos[0], opts.patterns)
			if err != nil {
				return false
			}
			for _, p := range pkgs {
				dirs[canonical(p.Dir)] = true
			}
		}
		return dirs[canonical(filepath.Dir(joinRoot(rep.root, file)))]
	}
	fresh, stale, err := base.filter(rep.root, rep.findings, analyzed)
	if err != nil {
		return err
	}
	rep.findings = fresh
	base.printStale(d.stderr, stale)
	return nil
}
