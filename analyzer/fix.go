package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
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
}

func importPath(spec *ast.ImportSpec) string {
	p, _ := strconv.Unquote(spec.Path.Value)
	return p
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
			if f.removed.Pos() <= pos && pos < f.removed.End() {
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
			if usesPkgName(info, f.removed, pn) {
				deleted = append(deleted, spec)
				break
			}
		}
	}
	adding := true
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
			edits = append(edits, analysis.TextEdit{Pos: gd.Pos(), End: gd.End(), NewText: fmt.Appendf(nil, "import %s", strconv.Quote(r.cfg.safeprobe))})
			adding = false
		case n == len(gd.Specs):
			edits = append(edits, deleteLines(fs.tf, gd))
		default:
			for _, spec := range gd.Specs {
				if countIn(&ast.GenDecl{Specs: []ast.Spec{spec}}, deleted) > 0 {
					edits = append(edits, deleteLines(fs.tf, spec))
				}
			}
		}
	}
	if adding {
		edits = append(edits, r.addImport(fs, deleted))
	}
	return edits
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

// addImport adds the safeprobe import to the last parenthesised import
// declaration that survives the fix, else on a line of its own.
func (r *runner) addImport(fs *fileState, deleted []*ast.ImportSpec) analysis.TextEdit {
	quoted := strconv.Quote(r.cfg.safeprobe)
	var last *ast.GenDecl
	for _, gd := range importDecls(fs.file) {
		last = gd
		if gd.Lparen.IsValid() && len(gd.Specs) > countIn(gd, deleted) {
			// Keep goimports' grouping: a blank line after standard
			// library imports.
			sep := ""
			if lastSpec := gd.Specs[len(gd.Specs)-1].(*ast.ImportSpec); isStd(importPath(lastSpec)) {
				sep = "\n"
			}
			return analysis.TextEdit{Pos: gd.Rparen, End: gd.Rparen, NewText: fmt.Appendf(nil, "%s\t%s\n", sep, quoted)}
		}
	}
	if last != nil {
		return analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: fmt.Appendf(nil, "\nimport %s", quoted)}
	}
	return analysis.TextEdit{Pos: fs.file.Name.End(), End: fs.file.Name.End(), NewText: fmt.Appendf(nil, "\n\nimport %s", quoted)}
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
