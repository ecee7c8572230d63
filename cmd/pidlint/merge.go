package main

// This file merges the findings of the GOOS builds: a finding several
// builds report at one position is one finding naming every build; their
// suggested fixes are kept when they agree and dropped when they do not.

import (
	"cmp"
	"slices"
)

// findingKey identifies a finding across builds.
type findingKey struct {
	file              string
	pos, end          int // line<<20 | column
	category, message string
}

func keyOf(f *finding) findingKey {
	at := func(line, col int) int { return line<<20 | col }
	return findingKey{f.pos.Filename, at(f.pos.Line, f.pos.Column), at(f.end.Line, f.end.Column), f.category, f.message}
}

// mergeFindings merges findings that several builds (or a package and its
// test variant) report, and sorts them by position.
func mergeFindings(all []finding) []finding {
	index := make(map[findingKey]int)
	var out []finding
	for _, f := range all {
		k := keyOf(&f)
		i, seen := index[k]
		if !seen {
			index[k] = len(out)
			f.goos = slices.Clone(f.goos)
			out = append(out, f)
			continue
		}
		m := &out[i]
		for _, g := range f.goos {
			if !slices.Contains(m.goos, g) {
				m.goos = append(m.goos, g)
			}
		}
		if !sameFixes(m.fixes, f.fixes) {
			// The builds disagree on the fix: any one of them could break
			// the others' build.
			m.fixes = nil
		}
	}
	for i := range out {
		slices.Sort(out[i].goos)
	}
	slices.SortFunc(out, func(x, y finding) int {
		return cmp.Or(
			cmp.Compare(x.pos.Filename, y.pos.Filename),
			cmp.Compare(x.pos.Line, y.pos.Line),
			cmp.Compare(x.pos.Column, y.pos.Column),
			cmp.Compare(x.message, y.message),
		)
	})
	return out
}

func sameFixes(x, y []fix) bool {
	return slices.EqualFunc(x, y, func(a, b fix) bool {
		return a.message == b.message && slices.EqualFunc(a.edits, b.edits, func(e, f edit) bool {
			return e.pos.Filename == f.pos.Filename && e.pos.Offset == f.pos.Offset && e.end.Offset == f.end.Offset && e.newText == f.newText
		})
	})
}
