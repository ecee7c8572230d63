package analyzer

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// A directive is a comment that suppresses findings, as staticcheck's
// //lint:ignore and //lint:file-ignore do:
//
//	//pidlint:ignore PL001[,signal-zero] reason       on its line and the next
//	//pidlint:file-ignore PL002[,kill-zero] reason    in its whole file
//
// Rules are named by ID (in any case) or name. A directive that names no
// rule, an unknown rule or no reason suppresses nothing and is reported.
type directive struct {
	pos     token.Pos
	line    int
	file    bool     // //pidlint:file-ignore
	names   []string // the rules as written
	rules   []string // the IDs of the known ones
	unknown []string // the names that name no rule
	reason  string
	used    bool
}

// BadIgnore is the diagnostic category of a directive that names no rule,
// an unknown rule or no reason. It belongs to no rule, and no directive
// suppresses it.
const BadIgnore = "bad-ignore"

// parseDirective parses c if it is a directive.
func parseDirective(c *ast.Comment) (*directive, bool) {
	d := &directive{pos: c.Pos()}
	rest, ok := strings.CutPrefix(c.Text, calls.IgnorePrefix)
	if !ok {
		if rest, ok = strings.CutPrefix(c.Text, calls.FileIgnorePrefix); !ok {
			return nil, false
		}
		d.file = true
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil, false // //pidlint:ignored, another word
	}
	// A nested "//" starts another comment, not the reason.
	rest, _, _ = strings.Cut(rest, "//")
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return d, true
	}
	for name := range strings.SplitSeq(fields[0], ",") {
		if name == "" {
			continue
		}
		d.names = append(d.names, name)
		if r, ok := LookupRule(name); ok {
			d.rules = append(d.rules, r.ID)
		} else {
			d.unknown = append(d.unknown, name)
		}
	}
	d.reason = strings.Join(fields[1:], " ")
	return d, true
}

// directives returns the directives of a file.
func directives(fset *token.FileSet, f *ast.File) []*directive {
	var ds []*directive
	for _, group := range f.Comments {
		for _, c := range group.List {
			if d, ok := parseDirective(c); ok {
				d.line = fset.PositionFor(c.Pos(), false).Line // as findings count lines
				ds = append(ds, d)
			}
		}
	}
	return ds
}

// kind is the directive's name, as messages print it.
func (d *directive) kind() string {
	if d.file {
		return "pidlint:file-ignore"
	}
	return "pidlint:ignore"
}

// problem says what is wrong with a directive that suppresses nothing
// whatever the code, or returns "".
func (d *directive) problem() string {
	switch {
	case len(d.names) == 0:
		return "malformed " + d.kind() + ": want //" + d.kind() + " PL00N[,rule-name] reason"
	case len(d.unknown) > 0:
		return d.kind() + " names unknown rule " + strings.Join(quoted(d.unknown), ", ") +
			": want a rule ID (" + Rules[0].ID + " to " + Rules[len(Rules)-1].ID + ") or name, as pidlint -explain lists them"
	case d.reason == "":
		return d.kind() + " " + strings.Join(d.names, ",") + " needs a reason after the rule"
	}
	return ""
}

func quoted(names []string) []string {
	var q []string
	for _, n := range names {
		q = append(q, `"`+n+`"`)
	}
	return q
}

// covers reports whether d suppresses a finding of rule on line.
func (d *directive) covers(rule string, line int) bool {
	return d.problem() == "" && slices.Contains(d.rules, rule) && (d.file || d.line == line || d.line == line-1)
}
