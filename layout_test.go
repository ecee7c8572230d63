package pidlint

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxLines is the most lines a Go file of the project may have, and
// maxMethodFiles the most files one type's methods may spread over: past
// them a file, or a type, holds more than one concern.
const (
	maxLines       = 400
	maxMethodFiles = 3
)

// TestLayout checks every non-test Go file outside testdata against
// maxLines, and every type against maxMethodFiles. Generated files (the
// "// Code generated ... DO NOT EDIT." header, go/ast.IsGenerated), such
// as the Python parser translated from WebAssembly, are skipped: no one
// edits them, their generator is what is reviewed.
func TestLayout(t *testing.T) {
	methodFiles := make(map[string][]string) // package dir + "." + type → files
	err := filepath.WalkDir(".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if generated(name, src) {
			return nil
		}
		if n := bytes.Count(src, []byte("\n")); n > maxLines {
			t.Errorf("%s: %d lines, more than %d", name, n, maxLines)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			key := filepath.Dir(name) + "." + receiverType(fd.Recv.List[0].Type)
			if !slices.Contains(methodFiles[key], name) {
				methodFiles[key] = append(methodFiles[key], name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key, files := range methodFiles {
		if len(files) > maxMethodFiles {
			t.Errorf("the methods of %s are in %d files, more than %d: %s", key, len(files), maxMethodFiles, strings.Join(files, ", "))
		}
	}
}

// generated reports whether the Go file carries the generated-code
// header.
func generated(name string, src []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly|parser.ParseComments)
	return err == nil && ast.IsGenerated(f)
}

// receiverType is the name of a method's receiver type.
func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}
