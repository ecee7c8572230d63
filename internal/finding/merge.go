package finding

import (
	"cmp"
	"slices"
)

// key identifies a finding across builds: a GOOS build, or a package and
// its test variant, may report the same one.
type key struct {
	file              string
	pos, end          int // byte offsets
	category, message string
}

func keyOf(f *Finding) key {
	return key{f.Pos.File, f.Pos.Offset, f.End.Offset, f.Category, f.Message}
}

// Merge merges the findings that several builds report at one place into
// one naming every build, and sorts them by position. Their suggested
// fixes are kept when they agree; when they do not, any one of them could
// break another build, and all are dropped.
func Merge(all []Finding) []Finding {
	index := make(map[key]int)
	var out []Finding
	for _, f := range all {
		k := keyOf(&f)
		i, seen := index[k]
		if !seen {
			index[k] = len(out)
			f.GOOS = slices.Clone(f.GOOS)
			out = append(out, f)
			continue
		}
		m := &out[i]
		for _, g := range f.GOOS {
			if !slices.Contains(m.GOOS, g) {
				m.GOOS = append(m.GOOS, g)
			}
		}
		if !sameFixes(m.Fixes, f.Fixes) {
			m.Fixes = nil
		}
	}
	for i := range out {
		slices.Sort(out[i].GOOS)
	}
	slices.SortFunc(out, Compare)
	return out
}

// Compare orders findings by file, position and message.
func Compare(x, y Finding) int {
	return cmp.Or(
		cmp.Compare(x.Pos.File, y.Pos.File),
		cmp.Compare(x.Pos.Offset, y.Pos.Offset),
		cmp.Compare(x.Message, y.Message),
	)
}

func sameFixes(x, y []Fix) bool {
	return slices.EqualFunc(x, y, func(a, b Fix) bool {
		return a.Message == b.Message && slices.EqualFunc(a.Edits, b.Edits, func(e, f Edit) bool {
			return e.Pos.File == f.Pos.File && e.Pos.Offset == f.Pos.Offset && e.End.Offset == f.End.Offset && e.New == f.New
		})
	})
}
