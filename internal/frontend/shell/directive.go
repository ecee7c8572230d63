package shell

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/pidlint/pidlint/internal/rules"
)

// directives are the file's ignore directives ("# pidlint:ignore SH001
// reason"), read from its comments as every front end reads them, and
// where each comment starts.
func directives(f *syntax.File) ([]*rules.Directive, []syntax.Pos) {
	var ds []*rules.Directive
	var at []syntax.Pos
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.Comment); ok {
			if d, ok := rules.ParseDirective(rules.Shell, "#"+c.Text, int(c.Hash.Line())); ok {
				ds = append(ds, d)
				at = append(at, c.Hash)
			}
		}
		return true
	})
	return ds, at
}
