package filter

// Baseline is the baseline: -write-baseline=FILE records the findings a
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
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/source"
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

// A Baseline is a read baseline file: a filter that drops the findings it
// accepts, and notes its stale entries.
type Baseline struct {
	name    string
	entries []baselineEntry
	src     *source.Cache
	// Analyzed reports whether a file was analyzed: an entry of an
	// analyzed file that matches no finding is stale.
	Analyzed func(file string) bool
}

// ReadBaseline reads and checks the baseline file name.
func ReadBaseline(name string, src *source.Cache) (*Baseline, error) {
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
	return &Baseline{name: name, entries: f.Findings, src: src}, nil
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

// WriteBaseline records findings, named relative to root, in the file
// name.
func WriteBaseline(name, root string, findings []finding.Finding, src *source.Cache) error {
	f := baselineFile{
		Version:  baselineVersion,
		Comment:  "Findings accepted when adopting pidlint: pidlint -baseline=FILE reports only the others. Entries match by file, rule and code, not line.",
		Findings: []baselineEntry{},
	}
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
	if err := source.WriteFile(name, append(data, '\n')); err != nil {
		return fmt.Errorf("baseline: %v", err)
	}
	return nil
}

// Filter returns the findings the baseline does not hold, and notes its
// entries that matched no finding in a file that was analyzed or that no
// longer exists: the code they name was fixed or removed.
func (b *Baseline) Filter(rep *finding.Report) ([]finding.Finding, error) {
	left := make(map[baselineEntry]int)
	for _, e := range b.entries {
		left[e.key()]++
	}
	var fresh []finding.Finding
	for _, f := range rep.Findings {
		e, err := entryOf(rep.Root, f, b.src)
		if err != nil {
			return nil, err
		}
		if k := e.key(); left[k] > 0 {
			left[k]--
			continue
		}
		fresh = append(fresh, f)
	}
	stale := 0
	for _, e := range b.entries {
		k := e.key()
		if left[k] == 0 {
			continue
		}
		file := joinRoot(rep.Root, e.File)
		if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) || b.Analyzed != nil && b.Analyzed(file) {
			left[k]--
			stale++
			rep.Notes = append(rep.Notes, fmt.Sprintf("baseline %s: stale entry (its finding is gone): %s: %s: %s", b.name, e.File, e.Rule, e.Code))
		}
	}
	if stale > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("pidlint -write-baseline=%s ./... rewrites the baseline without them", b.name))
	}
	return fresh, nil
}

// entryOf returns the baseline entry for f.
func entryOf(root string, f finding.Finding, src *source.Cache) (baselineEntry, error) {
	sf, err := src.File(f.Pos.File)
	if err != nil {
		return baselineEntry{}, fmt.Errorf("baseline: %v", err)
	}
	file := cmp.Or(finding.Rel(root, f.Pos.File), f.Pos.File)
	rule := cmp.Or(f.Rule, "pidlint:ignore")
	return baselineEntry{File: file, Rule: rule, Code: spanText(sf.Data, f.Pos.Offset, f.End.Offset), Message: f.Message}, nil
}

// spanText returns the code from offset start to end in src with each run
// of spaces made one, or the line of start when the span is empty.
func spanText(src []byte, start, end int) string {
	if start < 0 || start > len(src) {
		return ""
	}
	if end <= start || end > len(src) {
		end = start + bytes.IndexByte(src[start:], '\n')
		if end < start {
			end = len(src)
		}
		start = bytes.LastIndexByte(src[:start], '\n') + 1
	}
	return strings.Join(strings.Fields(string(src[start:end])), " ")
}

// joinRoot returns the file name of file, relative to root.
func joinRoot(root, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(root, filepath.FromSlash(file))
}
