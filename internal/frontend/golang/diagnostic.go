package golang

import (
	"fmt"

	"github.com/pidlint/pidlint/analyzer"
	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/source"
)

// A diagnostic is what either route reads of one analysis diagnostic,
// before its positions are resolved in the user's files.
type diagnostic struct {
	pkg, rule, category, message string
	pos, end                     lineCol // in the user's file (after //line directives)
	fixes                        []diagnosticFix
}

type lineCol struct {
	file      string
	line, col int
}

type diagnosticFix struct {
	message string
	edits   []diagnosticEdit
}

// A diagnosticEdit is a text edit by byte offsets in the file the analyzer
// parsed: for a file cgo rewrote, not the user's file but the file cgo
// generated from it.
type diagnosticEdit struct {
	file       string // the user's file (after //line directives)
	generated  string // the file cgo generated, when known
	start, end int
	new        string
}

// A resolver places diagnostics in the user's files.
type resolver struct {
	dir string // the working directory, notes name files relative to
	src *source.Cache
	cgo *cgoFiles // the files cgo generated, for edits that name none
}

// add resolves d's positions and adds it to the build as a finding. A
// diagnostic whose position is not in its file is an error of its
// package; a fix that cannot be placed in the user's file is dropped with
// a note.
func (b *build) add(r resolver, d diagnostic) {
	if d.category == analyzer.DebugCategory {
		b.notes = append(b.notes, d.message) // -flow-debug's lines
		return
	}
	src := r.src
	f := finding.Finding{Rule: d.rule, Category: d.category, Message: d.message, Unit: d.pkg, GOOS: []string{b.goos}}
	var err error
	if f.Pos, err = src.At(d.pos.file, d.pos.line, d.pos.col); err != nil {
		b.fail(d.pkg, fmt.Sprintf("a finding's position: %v", err))
		return
	}
	if f.End, err = src.At(d.end.file, d.end.line, d.end.col); err != nil {
		f.End = f.Pos
	}
	for _, fx := range d.fixes {
		resolved, err := r.fix(fx)
		if err != nil {
			b.notes = append(b.notes, fmt.Sprintf("%s: fix %q dropped: %v", f.Pos.Short(r.dir), fx.message, err))
			continue
		}
		f.Fixes = append(f.Fixes, resolved)
	}
	b.findings = append(b.findings, f)
}

// fix places the edits of fx in the user's files. The edits of a file
// that imports "C" are made in the file cgo generated from it: they are
// mapped back through its //line comments, and kept only where the text
// they change is the same in both.
func (r resolver) fix(fx diagnosticFix) (finding.Fix, error) {
	out := finding.Fix{Message: fx.message}
	for _, e := range fx.edits {
		file, err := r.src.File(e.file)
		if err != nil {
			return out, err
		}
		if file.Cgo() {
			gen := e.generated
			if gen == "" {
				if gen, err = r.cgo.generated(e.file); err != nil {
					return out, err
				}
			}
			pos, end, err := mapGenerated(r.src, gen, e.start, e.end)
			if err != nil {
				return out, err
			}
			out.Edits = append(out.Edits, finding.Edit{Pos: pos, End: end, New: e.new})
			continue
		}
		pos, err := file.Offset(e.start)
		if err != nil {
			return out, err
		}
		end, err := file.Offset(e.end)
		if err != nil {
			return out, err
		}
		out.Edits = append(out.Edits, finding.Edit{Pos: pos, End: end, New: e.new})
	}
	return out, nil
}
