package analyzer

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// ignoreDirective is "//pidlint:ignore PL001[,PL002] reason", which
// suppresses those rules' findings on its own line and the next.
type ignoreDirective struct {
	pos    token.Pos
	line   int
	rules  []string
	reason string
	used   bool
}

const ignorePrefix = calls.IgnorePrefix

func (r *runner) directives(fs *fileState) []*ignoreDirective {
	var ds []*ignoreDirective
	for _, group := range fs.file.Comments {
		for _, c := range group.List {
			rest, ok := strings.CutPrefix(c.Text, ignorePrefix)
			if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
				continue
			}
			// A nested "//" starts another comment, not the reason.
			rest, _, _ = strings.Cut(rest, "//")
			fields := strings.Fields(rest)
			d := &ignoreDirective{pos: c.Pos(), line: fs.tf.Line(c.Pos())}
			if len(fields) > 0 {
				for id := range strings.SplitSeq(fields[0], ",") {
					d.rules = append(d.rules, strings.ToUpper(id))
				}
				d.reason = strings.Join(fields[1:], " ")
			}
			ds = append(ds, d)
		}
	}
	return ds
}

// report applies //pidlint:ignore, completes the fixes' import edits and
// reports what is left, file by file.
func (r *runner) report() {
	for _, f := range r.pass.Files {
		r.fileOf(f.Pos()) // directives in files without calls count too
	}
	for _, fs := range r.order {
		ds := r.directives(fs)
		var kept []*finding
		for _, f := range fs.findings {
			if !r.suppressed(fs, ds, f) && !f.hidden {
				kept = append(kept, f)
			}
		}
		var fixes []*fixPlan
		for _, f := range kept {
			if f.fix != nil {
				fixes = append(fixes, f.fix)
			}
		}
		var imports []analysis.TextEdit
		if len(fixes) > 0 {
			imports = r.importEdits(fs, fixes)
		}
		for _, f := range kept {
			r.pass.Report(r.diagnostic(f, imports))
		}
		r.reportDirectives(ds)
	}
}

// ignoresRule reports whether a //pidlint:ignore of the package names rule.
func (r *runner) ignoresRule(rule string) bool {
	for _, f := range r.pass.Files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				if strings.HasPrefix(c.Text, ignorePrefix) && strings.Contains(strings.ToUpper(c.Text), rule) {
					return true
				}
			}
		}
	}
	return false
}

func (r *runner) suppressed(fs *fileState, ds []*ignoreDirective, f *finding) bool {
	line := fs.tf.Line(f.pos)
	for _, d := range ds {
		if (d.line == line || d.line == line-1) && slices.Contains(d.rules, f.rule) && d.reason != "" {
			d.used = true
			return true
		}
	}
	return false
}

// reportDirectives reports directives that are malformed or suppress
// nothing, so that stale ones do not pile up.
func (r *runner) reportDirectives(ds []*ignoreDirective) {
	for _, d := range ds {
		switch {
		case len(d.rules) == 0:
			r.pass.Reportf(d.pos, "malformed pidlint:ignore: want //pidlint:ignore PL00N reason")
		case d.reason == "":
			r.pass.Reportf(d.pos, "pidlint:ignore %s needs a reason after the rule", strings.Join(d.rules, ","))
		case !d.used:
			r.pass.Reportf(d.pos, "this pidlint:ignore %s matched nothing", strings.Join(d.rules, ","))
		}
	}
}

func (r *runner) diagnostic(f *finding, imports []analysis.TextEdit) analysis.Diagnostic {
	d := analysis.Diagnostic{
		Pos:      f.pos,
		End:      f.end,
		Category: f.rule,
		Message:  f.rule + ": " + f.msg,
	}
	if r, ok := LookupRule(f.rule); ok {
		d.URL = r.URL() // names the rule of a raw-probe finding too
	}
	if f.rawProbe {
		d.Category = RawProbe
	}
	if f.fix != nil {
		edits := []analysis.TextEdit{{Pos: f.fix.pos, End: f.fix.end, NewText: []byte(f.fix.newText)}}
		for _, n := range f.fix.dead {
			edits = append(edits, deleteLines(r.pass.Fset.File(n.Pos()), n))
		}
		edits = append(edits, imports...)
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   "Use " + strings.SplitN(f.fix.newText, "(", 2)[0],
			TextEdits: edits,
		}}
	}
	return d
}
