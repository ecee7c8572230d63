package fix

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pidlint/pidlint/internal/finding"
)

// diffContext is the number of unchanged lines around a hunk.
const diffContext = 3

// unifiedDiff returns the unified diff that the sorted edits make to the
// file name: each edit widened to whole lines, edits closer than twice
// the context in one hunk.
func unifiedDiff(name string, src []byte, edits []finding.Edit) string {
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
		edits    []finding.Edit
		newLines []string
	}
	var changes []change
	for _, e := range edits {
		from := lineOf(e.Pos.Offset)
		to := lineOf(e.End.Offset) + 1
		if e.End.Offset > e.Pos.Offset && e.End.Offset == lineStart(to-1) {
			to-- // the edit ends at a line start: that line is untouched
		}
		to = min(max(to, from+1), len(lines))
		if n := len(changes); n > 0 && from < changes[n-1].to {
			changes[n-1].to = max(changes[n-1].to, to)
			changes[n-1].edits = append(changes[n-1].edits, e)
			continue
		}
		changes = append(changes, change{from: from, to: to, edits: []finding.Edit{e}})
	}
	for i := range changes {
		c := &changes[i]
		base := lineStart(c.from)
		old := []byte(strings.Join(lines[c.from:c.to], ""))
		shifted := make([]finding.Edit, len(c.edits))
		for k, e := range c.edits {
			e.Pos.Offset -= base
			e.End.Offset -= base
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
