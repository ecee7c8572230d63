// Package fix is what a run does to the user's files: -fix applies the
// findings' suggested fixes, -diff prints them as a unified diff, and
// -vendor-safeprobe writes the safeprobe package the fixes call into the
// module. Every fix of a file carries the same import edits, so identical
// edits are applied once; a fix that overlaps an edit already taken is
// left out and said so.
package fix

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pidlint/pidlint/analyzer"
	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/source"
)

// fileEdits are the edits to one file, in the order taken.
type fileEdits struct {
	name  string
	edits []finding.Edit
}

// A Result is what Apply did.
type Result struct {
	Fixed int               // findings whose fix was taken
	Files int               // files changed
	Left  []finding.Finding // findings without a fix, or whose fix was left out
	Notes []string          // fixes left out, and why
	// ImportsDefault is set when a fix taken imports the default
	// safeprobe, which the module may not require yet.
	ImportsDefault bool
}

// Apply applies the first suggested fix of each finding to the files; with
// diff set, it writes the change there as a unified diff instead (file
// names relative to dir, the working directory, for patch -p0 there) and
// changes no file. Notes name files relative to dir.
func Apply(findings []finding.Finding, src *source.Cache, dir string, diff io.Writer) (*Result, error) {
	res := &Result{}
	byFile := make(map[string]*fileEdits)
	var order []*fileEdits
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			res.Left = append(res.Left, f)
			continue
		}
		fx := f.Fixes[0]
		// A fix's own edits may touch (an import inserted where an unused
		// one is deleted); they are checked only against other fixes'.
		taken := make(map[string][]finding.Edit) // this fix's new edits, per file
		ok := true
		for _, e := range fx.Edits {
			var have []finding.Edit // what other fixes already change
			if fe := byFile[e.Pos.File]; fe != nil {
				have = fe.edits
			}
			dup, conflict := fits(have, e)
			if conflict {
				ok = false
				break
			}
			if !dup && !slices.Contains(taken[e.Pos.File], e) {
				taken[e.Pos.File] = append(taken[e.Pos.File], e)
			}
		}
		if !ok {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: fix %q not applied: it overlaps another fix", f.Pos.Short(dir), fx.Message))
			res.Left = append(res.Left, f)
			continue
		}
		res.Fixed++
		for _, e := range fx.Edits {
			res.ImportsDefault = res.ImportsDefault || strings.Contains(e.New, strconv.Quote(analyzer.DefaultSafeprobePath))
		}
		for name, edits := range taken {
			fe := byFile[name]
			if fe == nil {
				fe = &fileEdits{name: name}
				byFile[name] = fe
				order = append(order, fe)
			}
			fe.edits = append(fe.edits, edits...)
		}
	}
	slices.SortFunc(order, func(x, y *fileEdits) int { return cmp.Compare(x.name, y.name) })
	res.Files = len(order)
	for _, fe := range order {
		file, err := src.File(fe.name)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(fe.edits, func(x, y finding.Edit) int {
			return cmp.Or(cmp.Compare(x.Pos.Offset, y.Pos.Offset), cmp.Compare(x.End.Offset, y.End.Offset))
		})
		if diff != nil {
			name := cmp.Or(finding.Rel(dir, fe.name), fe.name)
			if _, err := io.WriteString(diff, unifiedDiff(name, file.Data, fe.edits)); err != nil {
				return nil, err
			}
			continue
		}
		info, err := os.Stat(fe.name)
		if err != nil {
			return nil, err
		}
		// In place, as go fix and gofmt -w write: the file keeps its
		// inode, owner and links.
		if err := os.WriteFile(fe.name, applyEdits(file.Data, fe.edits), info.Mode().Perm()); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// fits reports whether e repeats an edit in have (dup) or cannot be
// applied with them (conflict): their ranges overlap, an insertion falls
// inside the other's range, or two different insertions share an offset
// (their order would be a guess).
func fits(have []finding.Edit, e finding.Edit) (dup, conflict bool) {
	for _, h := range have {
		hs, he, es, ee := h.Pos.Offset, h.End.Offset, e.Pos.Offset, e.End.Offset
		switch {
		case hs == es && he == ee && h.New == e.New:
			return true, false
		case hs < ee && es < he, // overlapping ranges
			hs < es && es < he, es < hs && hs < ee, // an insertion inside the other
			hs == he && es == ee && hs == es: // two insertions at one offset
			return false, true
		}
	}
	return false, false
}

// applyEdits applies sorted, disjoint edits to src.
func applyEdits(src []byte, edits []finding.Edit) []byte {
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(src[last:e.Pos.Offset])
		out.WriteString(e.New)
		last = e.End.Offset
	}
	out.Write(src[last:])
	return out.Bytes()
}

// PrintSummary says what -fix did: how many findings it fixed in how many
// files, and the findings left for a hand (named relative to dir).
func (res *Result) PrintSummary(w io.Writer, dir string) {
	if res.Fixed == 0 && len(res.Left) == 0 {
		return
	}
	fmt.Fprintf(w, "pidlint: fixed %s in %s", Plural(res.Fixed, "finding", "findings"), Plural(res.Files, "file", "files"))
	switch len(res.Left) {
	case 0:
		fmt.Fprintln(w)
		return
	case 1:
		fmt.Fprintf(w, "; 1 needs a hand:\n")
	default:
		fmt.Fprintf(w, "; %d need a hand:\n", len(res.Left))
	}
	for _, f := range res.Left {
		fmt.Fprintf(w, "%s: %s\n", f.Pos.Short(dir), f.Message)
	}
}

// Plural is "1 finding" or "N findings".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
