package filter

import (
	"path"
	"strings"

	"github.com/pidlint/pidlint/internal/finding"
)

// Exclude drops the findings in paths the config file excludes: a pattern
// names a file or a directory relative to Dir (the config file's), with
// path.Match's wildcards; a directory excludes everything under it.
type Exclude struct {
	Dir      string
	Patterns []string
}

func (e Exclude) Filter(rep *finding.Report) ([]finding.Finding, error) {
	var kept []finding.Finding
	for _, f := range rep.Findings {
		if !e.excludes(f.Pos.File) {
			kept = append(kept, f)
		}
	}
	return kept, nil
}

// excludes reports whether a pattern matches the file or a directory
// holding it.
func (e Exclude) excludes(file string) bool {
	rel := finding.Rel(e.Dir, file)
	if rel == "" {
		return false
	}
	for p := rel; p != "."; p = path.Dir(p) {
		for _, pat := range e.Patterns {
			if ok, _ := path.Match(pat, p); ok || strings.TrimSuffix(pat, "/") == p {
				return true
			}
		}
	}
	return false
}
