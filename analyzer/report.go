package analyzer

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/internal/rules"
)

// report applies the directives, completes the fixes' import edits and
// reports what is left, file by file.
func (r *runner) report() {
	for _, f := range r.pass.Files {
		r.fileOf(f.Pos()) // directives in files without calls count too
	}
	for _, fs := range r.order {
		ds := directives(r.pass.Fset, fs.file)
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
		r.reportDirectives(fs, ds)
	}
}

// ignoresRule reports whether a directive of the package names rule.
func (r *runner) ignoresRule(rule string) bool {
	for _, f := range r.pass.Files {
		for _, d := range directives(r.pass.Fset, f) {
			if slices.Contains(d.Rules, rule) {
				return true
			}
		}
	}
	return false
}

// suppressed reports whether a directive suppresses f, and marks every
// one that does as used.
func (r *runner) suppressed(fs *fileState, ds []directive, f *finding) bool {
	return rules.Suppress(parsed(ds), f.rule, fs.tf.Line(f.pos))
}

// reportDirectives reports the directives of a file that are malformed
// (category bad-ignore) or, on a line, suppress nothing, so that stale
// ones do not pile up. A file-ignore that suppresses nothing is not
// reported, as staticcheck does not: it may stand for findings of a build
// this one is not. Nor is a line's in a file that does not build on the
// host: only the build for its OS sees every finding there.
func (r *runner) reportDirectives(fs *fileState, ds []directive) {
	_, ignored := r.ignored[fs.tf.Name()]
	for _, d := range ds {
		switch {
		case d.Problem() != "":
			r.pass.Report(analysis.Diagnostic{Pos: d.pos, Category: BadIgnore, Message: d.Problem()})
		case !d.Used && !d.File && !ignored:
			r.pass.Report(analysis.Diagnostic{Pos: d.pos, Message: d.Unused()})
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
