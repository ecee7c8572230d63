package main

// This file is -fix and -diff: the merged findings' suggested fixes,
// applied to the files or printed as a unified diff. Every fix of a file
// carries the same import edits, so identical edits are applied once; a
// fix that overlaps an edit already taken is left out and said so.

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
)

// fileEdits are the edits to one file, in the order taken.
type fileEdits struct {
	name  string
	edits []edit
}

// A fixResult is what applyFixes did.
type fixResult struct {
	fixed int       // findings whose fix was taken
	files int       // files changed
	left  []finding // findings without a fix, or whose fix was left out
	// importsDefault is set when a fix taken imports the default
	// safeprobe, which the module may not require yet.
	importsDefault bool
}

// applyFixes applies the first suggested fix of each finding; with diff,
// it prints the change as a unified diff (file names relative to root,
// for patch -p0 there) and writes nothing.
func applyFixes(findings []finding, root string, diff bool, stdout, stderr io.Writer) (*fixResult, error) {
	res := &fixResult{}
	byFile := make(map[string]*fileEdits)
	var order []*fileEdits
	for _, f := range findings {
		if len(f.fixes) == 0 {
			res.left = append(res.left, f)
			continue
		}
		fx := f.fixes[0]
		// A fix's own edits may touch (an import inserted where an unused
		// one is deleted); they are checked only against other fixes'.
		taken := make(map[string][]edit) // this fix's new edits, per file
		ok := true
		for _, e := range fx.edits {
			var have []edit // what other fixes already change
			if fe := byFile[e.pos.Filename]; fe != nil {
				have = fe.edits
			}
			dup, conflict := fits(have, e)
			if conflict {
				ok = false
				break
			}
			if !dup && !slices.Contains(taken[e.pos.Filename], e) {
				taken[e.pos.Filename] = append(taken[e.pos.Filename], e)
			}
		}
		if !ok {
			fmt.Fprintf(stderr, "pidlint: %s: fix %q not applied: it overlaps another fix\n", f.pos, fx.message)
			res.left = append(res.left, f)
			continue
		}
		res.fixed++
		for _, e := range fx.edits {
			res.importsDefault = res.importsDefault || strings.Contains(e.newText, strconv.Quote(analyzer.DefaultSafeprobePath))
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
	res.files = len(order)
	for _, fe := range order {
		old, err := os.ReadFile(fe.name)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(fe.edits, func(x, y edit) int {
			return cmp.Or(cmp.Compare(x.pos.Offset, y.pos.Offset), cmp.Compare(x.end.Offset, y.end.Offset))
		})
		if diff {
			name := relPath(root, fe.name)
			if name == "" {
				name = fe.name
			}
			if _, err := io.WriteString(stdout, unifiedDiff(name, old, fe.edits)); err != nil {
				return nil, err
			}
			continue
		}
		info, err := os.Stat(fe.name)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(fe.name, applyEdits(old, fe.edits), info.Mode().Perm()); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// fits reports whether e repeats an edit in have (dup) or cannot be
// applied with them (conflict): their ranges overlap, an insertion falls
// inside the other's range, or two different insertions share an offset
// (their order would be a guess).
func fits(have []edit, e edit) (dup, conflict bool) {
	for _, h := range have {
		hs, he, es, ee := h.pos.Offset, h.end.Offset, e.pos.Offset, e.end.Offset
		switch {
		case hs == es && he == ee && h.newText == e.newText:
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
func applyEdits(src []byte, edits []edit) []byte {
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(src[last:e.pos.Offset])
		out.WriteString(e.newText)
		last = e.end.Offset
	}
	out.Write(src[last:])
	return out.Bytes()
}

// diffContext is the number of unchanged lines around a hunk.
const diffContext = 3

// unifiedDiff returns the unified diff that the sorted edits make to the
// file name: each edit widened to whole lines, edits closer than twice
// the context in one hunk.
func unifiedDiff(name string, src []byte, edits []edit) string {
	lines := splitLines(src)
	lineOf := func(offset int) int { // 0-based line holding offset
		n := 0
		for i, l := range lines {
			if n+len(l) > offset {
				return i
			}
			n += len(l)
		}
		return len(lines)
	}
	lineStart := func(i int) int {
		n := 0
		for _, l := range lines[:i] {
			n += len(l)
		}
		return n
	}
	// A change replaces old lines [from, to) with new text.
	type change struct {
		from, to int
		edits    []edit
		newLines []string
	}
	var changes []change
	for _, e := range edits {
		from := lineOf(e.pos.Offset)
		to := lineOf(e.end.Offset) + 1
		if e.end.Offset > e.pos.Offset && e.end.Offset == lineStart(to-1) {
			to-- // the edit ends at a line start: that line is untouched
		}
		to = min(max(to, from+1), len(lines))
		if n := len(changes); n > 0 && from < changes[n-1].to {
			changes[n-1].to = max(changes[n-1].to, to)
			changes[n-1].edits = append(changes[n-1].edits, e)
			continue
		}
		changes = append(changes, change{from: from, to: to, edits: []edit{e}})
	}
	for i := range changes {
		c := &changes[i]
		base := lineStart(c.from)
		old := []byte(strings.Join(lines[c.from:c.to], ""))
		shifted := make([]edit, len(c.edits))
		for k, e := range c.edits {
			e.pos.Offset -= base
			e.end.Offset -= base
			shifted[k] = e
		}
		c.newLines = splitLines(applyEdits(old, shifted))
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", name, name)
	for i := 0; i < len(changes); {
		// Group the changes whose contexts touch into one hunk.
		j := i + 1
		for j < len(changes) && changes[j].from-changes[j-1].to <= 2*diffContext {
			j++
		}
		start := max(changes[i].from-diffContext, 0)
		end := min(changes[j-1].to+diffContext, len(lines))
		var hunk strings.Builder
		oldCount, newCount := 0, 0
		at := start
		for _, c := range changes[i:j] {
			for ; at < c.from; at++ {
				hunk.WriteString(" " + lines[at])
				oldCount++
				newCount++
			}
			for _, l := range lines[c.from:c.to] {
				hunk.WriteString("-" + l)
				oldCount++
			}
			for _, l := range c.newLines {
				hunk.WriteString("+" + l)
				newCount++
			}
			at = c.to
		}
		for ; at < end; at++ {
			hunk.WriteString(" " + lines[at])
			oldCount++
			newCount++
		}
		newStart := start + 1
		for _, c := range changes[:i] {
			newStart += len(c.newLines) - (c.to - c.from)
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", start+1, oldCount, newStart, newCount)
		out.WriteString(hunk.String())
		i = j
	}
	return out.String()
}

// splitLines splits src into lines that keep their "\n"; a last line
// without one gets it and a "\ No newline" marker is not printed (Go
// files end in a newline).
func splitLines(src []byte) []string {
	var lines []string
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			lines = append(lines, string(src)+"\n")
			break
		}
		lines = append(lines, string(src[:i+1]))
		src = src[i+1:]
	}
	return lines
}

// printFixSummary says what -fix did: how many findings it fixed in how
// many files, and the findings left for a hand.
func printFixSummary(w io.Writer, res *fixResult) {
	if res.fixed == 0 && len(res.left) == 0 {
		return
	}
	fmt.Fprintf(w, "pidlint: fixed %s in %s", plural(res.fixed, "finding", "findings"), plural(res.files, "file", "files"))
	switch len(res.left) {
	case 0:
		fmt.Fprintln(w)
		return
	case 1:
		fmt.Fprintf(w, "; 1 needs a hand:\n")
	default:
		fmt.Fprintf(w, "; %d need a hand:\n", len(res.left))
	}
	for _, f := range res.left {
		fmt.Fprintf(w, "%s: %s\n", f.pos, f.message)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
