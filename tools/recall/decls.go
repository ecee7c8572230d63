package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
)

// A Span is a top-level declaration of a file: a function or method, or a
// var, const or type declaration, from its first line (the func keyword,
// not the doc comment) to its last.
type Span struct {
	File        string
	Name        string // Func, Recv.Method, or the first name a GenDecl declares
	Start, Stop int
}

func (sp Span) contains(file string, line int) bool {
	return sp.File == file && sp.Start <= line && line <= sp.Stop
}

// Decls parses the module's Go files on demand and caches their top-level
// declarations.
type Decls struct {
	root  string // the module copy's directory
	files map[string][]Span
}

func NewDecls(root string) *Decls {
	return &Decls{root: root, files: make(map[string][]Span)}
}

func (d *Decls) spans(file string) ([]Span, error) {
	if sp, ok := d.files[file]; ok {
		return sp, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(d.root, filepath.FromSlash(file)), nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var spans []Span
	for _, decl := range f.Decls {
		sp := Span{File: file, Start: fset.Position(decl.Pos()).Line, Stop: fset.Position(decl.End()).Line}
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			sp.Name = decl.Name.Name
			if decl.Recv != nil && len(decl.Recv.List) > 0 {
				sp.Name = receiverName(decl.Recv.List[0].Type) + "." + sp.Name
			}
			spans = append(spans, sp)
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
				switch spec := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						named := sp
						named.Name = n.Name
						spans = append(spans, named)
					}
				case *ast.TypeSpec:
					named := sp
					named.Name = spec.Name.Name
					spans = append(spans, named)
				}
			}
		}
	}
	d.files[file] = spans
	return spans, nil
}

func receiverName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverName(e.X)
	case *ast.IndexExpr:
		return receiverName(e.X)
	case *ast.IndexListExpr:
		return receiverName(e.X)
	case *ast.ParenExpr:
		return receiverName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// At returns the top-level declaration holding line, if any.
func (d *Decls) At(file string, line int) (Span, bool, error) {
	spans, err := d.spans(file)
	if err != nil {
		return Span{}, false, err
	}
	for _, sp := range spans {
		if sp.contains(file, line) {
			return sp, true, nil
		}
	}
	return Span{}, false, nil
}

// Resolve finds the declaration a scope ref names; a ref's file is
// relative to the directory of the site's file.
func (d *Decls) Resolve(siteFile string, r Ref) (Span, error) {
	file := siteFile
	if r.File != "" {
		file = path.Join(path.Dir(siteFile), r.File)
	}
	if r.Name == "" {
		sp, ok, err := d.At(file, r.Line)
		if err != nil {
			return Span{}, err
		}
		if !ok {
			return Span{}, fmt.Errorf("%s:%d is in no top-level declaration", file, r.Line)
		}
		return sp, nil
	}
	spans, err := d.spans(file)
	if err != nil {
		return Span{}, err
	}
	for _, sp := range spans {
		if sp.Name == r.Name {
			return sp, nil
		}
	}
	return Span{}, fmt.Errorf("%s declares no %s", file, r.Name)
}
