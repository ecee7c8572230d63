package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A fixPlan replaces one node with text. The imports it needs are worked out
// per file once every finding is known (see importEdits).
type fixPlan struct {
	pos, end token.Pos
	newText  string
	// removed is the code the fix deletes: package names used inside it
	// may leave the file with the fix.
	removed ast.Node
	// std: the text names only packages the file imports already, not
	// safeprobe.
	std bool
	// dead are statements the fix leaves unused (the FindProcess whose
	// process it no longer probes), deleted with their lines.
	dead []ast.Node
}

// deletes reports whether the fix deletes the code at pos.
func (f *fixPlan) deletes(pos token.Pos) bool {
	if f.removed.Pos() <= pos && pos < f.removed.End() {
		return true
	}
	for _, n := range f.dead {
		if n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}

// deletesUseOf reports whether the fix deletes a use of pn.
func (f *fixPlan) deletesUseOf(info *types.Info, pn *types.PkgName) bool {
	if usesPkgName(info, f.removed, pn) {
		return true
	}
	for _, n := range f.dead {
		if usesPkgName(info, n, pn) {
			return true
		}
	}
	return false
}

// importEdits returns, for a file whose fixes are all applied together, the
// edits that keep its imports right: safeprobe added where it is missing,
// and every import whose last use the fixes remove deleted. The same edits
// go with every fix of the file, so that any driver that merges identical
// edits (go vet -fix, golangci-lint --fix) leaves a file that compiles:
// golangci-lint does not remove unused imports itself.
func (r *runner) importEdits(fs *fileState, fixes []*fixPlan) []analysis.TextEdit {
	info := r.pass.TypesInfo
	// Uses of each imported package name left after the fixes.
	remaining := make(map[*types.PkgName]int)
	covered := func(pos token.Pos) bool {
		for _, f := range fixes {
			if f.deletes(pos) {
				return true
			}
		}
		return false
	}
	ast.Inspect(fs.file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if pn, ok := info.Uses[id].(*types.PkgName); ok && !covered(id.Pos()) {
				remaining[pn]++
			}
		}
		return true
	})
	var deleted []*ast.ImportSpec
	for _, spec := range fs.file.Imports {
		pn := info.PkgNameOf(spec)
		if pn == nil || pn.Name() == "_" || pn.Name() == "." || remaining[pn] > 0 {
			continue
		}
		// Delete only what the fixes made unused: it had uses before.
		for _, f := range fixes {
			if f.deletesUseOf(info, pn) {
				deleted = append(deleted, spec)
				break
			}
		}
	}
	adding := slices.ContainsFunc(fixes, func(f *fixPlan) bool { return !f.std })
	for _, spec := range fs.file.Imports {
		if importPath(spec) == r.cfg.safeprobe {
			adding = false
		}
	}
	var edits []analysis.TextEdit
	for _, gd := range importDecls(fs.file) {
		n := countIn(gd, deleted)
		switch {
		case n == 0:
		case n == len(gd.Specs) && adding:
			// Reuse the declaration: deleting it and adding one in
			// its place would be overlapping edits.
			edits = append(edits, analysis.TextEdit{Pos: gd.Pos(), End: gd.End(), NewText: fmt.Appendf(nil, "import %s", r.safeprobeImport())})
			adding = false
		case n == len(gd.Specs):
			edits = append(edits, deleteLines(fs.tf, gd))
		default:
			edits = append(edits, r.deleteSpecs(fs, gd, deleted)...)
		}
	}
	if adding {
		edits = append(edits, r.addImport(fs, deleted))
	}
	return edits
}

// deleteSpecs deletes the deleted specs of a parenthesised import
// declaration that keeps others. A group of specs (between blank lines)
// that goes entirely takes a blank line beside it along, so that the file
// stays gofmt-clean without a formatter.
func (r *runner) deleteSpecs(fs *fileState, gd *ast.GenDecl, deleted []*ast.ImportSpec) []analysis.TextEdit {
	var specs []*ast.ImportSpec
	for _, spec := range gd.Specs {
		specs = append(specs, spec.(*ast.ImportSpec))
	}
	var edits []analysis.TextEdit
	for _, group := range importGroups(fs.tf, specs) {
		var gone []*ast.ImportSpec
		for _, spec := range group {
			if slices.Contains(deleted, spec) {
				gone = append(gone, spec)
			}
		}
		if len(gone) < len(group) {
			for _, spec := range gone {
				edits = append(edits, deleteLines(fs.tf, spec))
			}
			continue
		}
		first, last := fs.tf.Line(group[0].Pos()), fs.tf.Line(group[len(group)-1].End())
		start, end := fs.tf.LineStart(first), nextLineStart(fs.tf, group[len(group)-1].End())
		switch {
		case fs.blankLine(last + 1):
			end = nextLineStart(fs.tf, end)
		case fs.blankLine(first - 1):
			start = fs.tf.LineStart(first - 1)
		}
		edits = append(edits, analysis.TextEdit{Pos: start, End: end})
	}
	return edits
}

// importGroups splits import specs into the groups blank lines separate.
func importGroups(tf *token.File, specs []*ast.ImportSpec) [][]*ast.ImportSpec {
	var groups [][]*ast.ImportSpec
	for i, spec := range specs {
		if i == 0 || tf.Line(spec.Pos())-tf.Line(specs[i-1].End()) > 1 {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], spec)
	}
	return groups
}

func usesPkgName(info *types.Info, n ast.Node, pn *types.PkgName) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == pn {
			found = true
		}
		return !found
	})
	return found
}

func importDecls(f *ast.File) []*ast.GenDecl {
	var decls []*ast.GenDecl
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			decls = append(decls, gd)
		}
	}
	return decls
}

// deleteLines removes the lines n spans.
func deleteLines(tf *token.File, n ast.Node) analysis.TextEdit {
	return analysis.TextEdit{Pos: lineStart(tf, n.Pos()), End: nextLineStart(tf, n.End())}
}

// addImport adds the safeprobe import where gofmt and goimports would put
// it: sorted into the last group of non-standard imports of a
// parenthesised declaration that survives the fix, or in a new group after
// the standard library; else on a line of its own.
func (r *runner) addImport(fs *fileState, deleted []*ast.ImportSpec) analysis.TextEdit {
	quoted := r.safeprobeImport()
	insert := func(pos token.Pos, text string) analysis.TextEdit {
		return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)}
	}
	decls := importDecls(fs.file)
	for i := len(decls) - 1; i >= 0; i-- {
		gd := decls[i]
		var kept []*ast.ImportSpec
		for _, spec := range gd.Specs {
			if !slices.Contains(deleted, spec.(*ast.ImportSpec)) {
				kept = append(kept, spec.(*ast.ImportSpec))
			}
		}
		if !gd.Lparen.IsValid() || len(kept) == 0 {
			continue
		}
		groups := importGroups(fs.tf, kept)
		group := groups[len(groups)-1]
		last := group[len(group)-1]
		if isStd(importPath(last)) {
			return insert(nextLineStart(fs.tf, last.End()), "\n\t"+quoted+"\n")
		}
		for _, spec := range group {
			if importPath(spec) > r.cfg.safeprobe {
				return insert(lineStart(fs.tf, spec.Pos()), "\t"+quoted+"\n")
			}
		}
		return insert(nextLineStart(fs.tf, last.End()), "\t"+quoted+"\n")
	}
	if len(decls) > 0 {
		return insert(decls[len(decls)-1].End(), "\nimport "+quoted)
	}
	return insert(fs.file.Name.End(), "\n\nimport "+quoted)
}

// isStd reports whether an import path is in the standard library: its
// first element has no dot.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func countIn(gd *ast.GenDecl, specs []*ast.ImportSpec) int {
	n := 0
	for _, s := range gd.Specs {
		for _, d := range specs {
			if s == d {
				n++
			}
		}
	}
	return n
}

func lineStart(tf *token.File, pos token.Pos) token.Pos {
	return tf.LineStart(tf.Line(pos))
}

func nextLineStart(tf *token.File, pos token.Pos) token.Pos {
	if line := tf.Line(pos); line < tf.LineCount() {
		return tf.LineStart(line + 1)
	}
	return token.Pos(tf.Base() + tf.Size())
}

// safeprobeName is the name the safeprobe package is imported as in fs, or
// would be once a fix adds the import. It is "" when a fix cannot name it
// at pos (a dot or blank import, or the name is taken there).
func (r *runner) safeprobeName(fs *fileState, pos token.Pos) string {
	for _, spec := range fs.file.Imports {
		if importPath(spec) != r.cfg.safeprobe {
			continue
		}
		if pn := r.pass.TypesInfo.PkgNameOf(spec); pn != nil && pn.Name() != "_" && pn.Name() != "." {
			return pn.Name()
		}
		return ""
	}
	name := r.safeprobePkgName()
	if scope := r.pass.Pkg.Scope().Innermost(pos); scope != nil {
		if _, obj := scope.LookupParent(name, pos); obj != nil {
			return ""
		}
	}
	if r.pass.TypesInfo.Scopes[fs.file].Lookup(name) != nil {
		return ""
	}
	return name
}

// safeprobePkgName is the name the safeprobe package declares: the one it
// has where this package imports it already, else "safeprobe", whatever
// the directory of a vendored copy is called.
func (r *runner) safeprobePkgName() string {
	for _, imp := range r.pass.Pkg.Imports() {
		if imp.Path() == r.cfg.safeprobe {
			return imp.Name()
		}
	}
	return "safeprobe"
}

// safeprobeImport is the import spec fixes add: named when the package's
// name is not the last element of its path
// (safeprobe "example.com/m/internal/pidlintsafeprobe").
func (r *runner) safeprobeImport() string {
	quoted := strconv.Quote(r.cfg.safeprobe)
	if name := r.safeprobePkgName(); name != path.Base(r.cfg.safeprobe) {
		return name + " " + quoted
	}
	return quoted
}
