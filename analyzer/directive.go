package analyzer

import (
	"go/ast"
	"go/token"

	"github.com/pidlint/pidlint/internal/rules"
)

// BadIgnore is the diagnostic category of a directive that names no rule,
// an unknown rule or no reason. It belongs to no rule, and no directive
// suppresses it.
const BadIgnore = rules.BadIgnore

// A directive is a //pidlint:ignore or //pidlint:file-ignore comment
// (rules.Directive, which every front end parses alike) at its position.
type directive struct {
	*rules.Directive
	pos token.Pos
}

// directives returns the directives of a file.
func directives(fset *token.FileSet, f *ast.File) []directive {
	var ds []directive
	for _, group := range f.Comments {
		for _, c := range group.List {
			line := fset.PositionFor(c.Pos(), false).Line // as findings count lines
			if d, ok := rules.ParseDirective(rules.Go, c.Text, line); ok {
				ds = append(ds, directive{d, c.Pos()})
			}
		}
	}
	return ds
}

// parsed returns the rules.Directives of ds.
func parsed(ds []directive) []*rules.Directive {
	out := make([]*rules.Directive, len(ds))
	for i, d := range ds {
		out[i] = d.Directive
	}
	return out
}
