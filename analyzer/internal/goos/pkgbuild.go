package goos

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// This file tells whether a package, as one build sees it, can build for
// another GOOS: a file's own constraints may admit windows ("x_unix.go" is
// not a file-name constraint) while its code calls syscall.Kill, which
// windows does not have. A message must not say what the code does on an
// OS it cannot build for.

// CannotBuild reports whether the package made of files (type-checked by
// info in this build) surely does not build for goos: a file that builds
// for goos imports a package that has no file for goos (golang.org/x/sys/unix
// on windows), or names something syscall does not declare there
// (syscall.Kill on windows). It answers false when it cannot tell.
func (std *Std) CannotBuild(fset *token.FileSet, info *types.Info, files []*ast.File, goos string) bool {
	for _, f := range files {
		if !OfFile(fset, fset.File(f.Pos()).Name(), f).Has(Of(goos)) {
			continue
		}
		for _, spec := range f.Imports {
			if path := strings.Trim(spec.Path.Value, "`\""); std.noFilesFor(goos, path) {
				return true
			}
		}
		if std.usesUndeclared(info, f, goos) {
			return true
		}
	}
	return false
}

// usesUndeclared reports whether f names a package-level syscall object
// that syscall does not declare for goos.
func (std *Std) usesUndeclared(info *types.Info, f *ast.File, goos string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || found {
			return !found
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		pn, ok := info.Uses[id].(*types.PkgName)
		if !ok || pn.Imported().Path() != "syscall" {
			return true
		}
		if names, ok := std.declared(goos, "syscall"); ok && !names[sel.Sel.Name] {
			found = true
		}
		return !found
	})
	return found
}

// Packages of golang.org/x/sys that build for one OS family only.
var sysOnly = map[string]Set{
	"golang.org/x/sys/unix":    Unix | Of("zos"),
	"golang.org/x/sys/windows": Windows,
}

// noFilesFor reports whether the package path surely has no file for goos:
// golang.org/x/sys/unix off Unix, or a standard package whose files all
// exclude goos.
func (std *Std) noFilesFor(goos, path string) bool {
	if s, ok := sysOnly[path]; ok {
		return !s.Has(Of(goos))
	}
	if !isStd(path) {
		return false
	}
	k := stdKey{goos, path}
	std.mu.Lock()
	defer std.mu.Unlock()
	none, ok := std.none[k]
	if !ok {
		none = std.hasNoFile(goos, path)
		if std.none == nil {
			std.none = make(map[stdKey]bool)
		}
		std.none[k] = none
	}
	return none
}

// hasNoFile reports whether GOROOT's package path surely has no Go file
// that builds for goos. It stops at the first file that does (most
// packages' first), reading that file's header alone, where ImportDir
// would read every file's.
func (std *Std) hasNoFile(goos, path string) bool {
	ctxt, ok := goosContext(goos)
	if !ok {
		return false
	}
	dir := filepath.Join(ctxt.GOROOT, "src", filepath.FromSlash(path))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if match, err := ctxt.MatchFile(dir, name); err != nil || match {
			return false
		}
	}
	return true
}

// goosContext is the build context of GOROOT for goos on amd64, with cgo.
func goosContext(goos string) (build.Context, bool) {
	ctxt := build.Default
	ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = goos, "amd64", true
	return ctxt, ctxt.GOROOT != ""
}

// isStd reports whether path names a standard package: its first element
// has no dot, as the go command decides.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return path != "C" && !strings.Contains(first, ".")
}

// A Std answers for the standard library as it builds for other GOOS
// values, from GOROOT's sources; the zero value is ready, and safe for
// concurrent use. One Std serves one analysis pass, or one run when the
// driver passes one to the analyzer (analyzer.Config.Cache): the analyzer
// keeps no state across packages of its own.
type Std struct {
	mu    sync.Mutex
	pkgs  map[stdKey]*build.Package // nil: no file for the GOOS
	decls map[stdKey]map[string]bool
	none  map[stdKey]bool // packages with no file for the GOOS
}

type stdKey struct{ goos, path string }

// pkg returns the standard package path as it builds for goos, nil when
// none of its files do; ok is false when GOROOT cannot tell.
func (std *Std) pkg(goos, path string) (p *build.Package, ok bool) {
	k := stdKey{goos, path}
	if p, ok := std.pkgs[k]; ok {
		return p, true
	}
	ctxt, ok := goosContext(goos)
	if !ok {
		return nil, false
	}
	p, err := ctxt.ImportDir(filepath.Join(ctxt.GOROOT, "src", filepath.FromSlash(path)), 0)
	if _, none := err.(*build.NoGoError); none {
		p = nil
	} else if err != nil {
		return nil, false
	}
	if std.pkgs == nil {
		std.pkgs = make(map[stdKey]*build.Package)
	}
	std.pkgs[k] = p
	return p, true
}

// declared returns the exported package-level names the standard package
// path declares for goos; ok is false when GOROOT cannot tell.
func (std *Std) declared(goos, path string) (names map[string]bool, ok bool) {
	std.mu.Lock()
	defer std.mu.Unlock()
	k := stdKey{goos, path}
	if names, ok := std.decls[k]; ok {
		return names, names != nil
	}
	p, ok := std.pkg(goos, path)
	if !ok {
		return nil, false
	}
	names = make(map[string]bool)
	if p != nil {
		fset := token.NewFileSet()
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				names = nil
				break
			}
			addDecls(f, names)
		}
	}
	if std.decls == nil {
		std.decls = make(map[stdKey]map[string]bool)
	}
	std.decls[k] = names
	return names, names != nil
}

// addDecls adds the exported package-level names f declares.
func addDecls(f *ast.File, names map[string]bool) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					names[spec.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
}
