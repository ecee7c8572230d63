package main

// This file is the build for one GOOS without go vet, for a build cache
// with nothing in it: go vet would first compile every dependency (what
// go build does), which costs many times the analysis. Here the packages
// are loaded from source in this process, and the dependencies outside
// the main module that cannot declare a probe wrapper are type-checked
// from their declarations only: no function bodies, where most of the
// time and memory of a load goes.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/pidlint/pidlint/analyzer"
)

// load analyzes the packages patterns name for goos in this process.
// Function bodies are kept in the files of keep (a file name to whether
// it is analyzed) and in those that may declare a wrapper.
func (d *driver) load(goos string, opts *options, patterns []string, keep func(name string) bool) (*goosBuild, error) {
	a := analyzer.New()
	for _, arg := range opts.analyzerArgs {
		name, value, _ := strings.Cut(strings.TrimPrefix(arg, "-"), "=")
		if err := a.Flags.Set(name, value); err != nil {
			return nil, fmt.Errorf("-%s: %v", name, err)
		}
	}
	if opts.verbose {
		fmt.Fprintf(d.stderr, "pidlint: GOOS=%s: loading %s in-process (the build cache is empty)\n", goos, strings.Join(patterns, " "))
	}
	var stripped sync.Map // file name → true: parsed without function bodies
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Dir:   d.dir,
		Tests: opts.tests,
		Env:   append(os.Environ(), "GOOS="+goos),
		ParseFile: func(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
			f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
			if f != nil && !keep(name) && !mayDeclareWrapper(src) {
				dropBodies(f)
				stripped.Store(name, true)
			}
			return f, err
		},
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	b := &goosBuild{goos: goos, failed: make(map[string]string)}
	if len(pkgs) == 0 {
		b.general = append(b.general, fmt.Sprintf("%s matched no packages", strings.Join(patterns, " ")))
		return b, nil
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		forgiveUnusedImports(p, &stripped)
		for _, e := range p.Errors {
			if b.failed[p.PkgPath] == "" {
				b.failed[p.PkgPath] = e.Error()
			}
		}
	})
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	for act := range graph.All() {
		if !act.IsRoot || act.Analyzer != a {
			continue
		}
		if act.Err != nil {
			if b.failed[act.Package.PkgPath] == "" {
				b.failed[act.Package.PkgPath] = act.Err.Error()
			}
			continue
		}
		for _, diag := range act.Diagnostics {
			b.findings = append(b.findings, findingOf(act.Package.PkgPath, goos, act.Package.Fset, diag))
		}
	}
	return b, nil
}

// findingOf is the finding a diagnostic reports, as newFinding reads it
// from go vet's JSON.
func findingOf(pkg, goos string, fset *token.FileSet, diag analysis.Diagnostic) finding {
	f := finding{
		pkg:      pkg,
		goos:     []string{goos},
		category: diag.Category,
		message:  diag.Message,
		pos:      fset.Position(diag.Pos),
		end:      fset.Position(diag.End),
	}
	if id, _, ok := strings.Cut(diag.Message, ": "); ok && ruleID(id) {
		f.rule = id
	}
	for _, sf := range diag.SuggestedFixes {
		fx := fix{message: sf.Message}
		for _, te := range sf.TextEdits {
			end := te.End
			if !end.IsValid() {
				end = te.Pos
			}
			fx.edits = append(fx.edits, edit{pos: fset.Position(te.Pos), end: fset.Position(end), newText: string(te.NewText)})
		}
		f.fixes = append(f.fixes, fx)
	}
	return f
}

// inDirs reports whether the file name is in one of dirs.
func inDirs(dirs map[string]bool, name string) bool {
	return dirs[filepath.Dir(name)]
}

// dropBodies removes the bodies of f's functions, but for those the type
// checker insists on (init, generic functions).
func dropBodies(f *ast.File) {
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Name.Name != "init" && fd.Type.TypeParams == nil {
			fd.Body = nil
		}
	}
}

// forgiveUnusedImports drops the "imported and not used" errors that
// dropping function bodies causes in a package, and recomputes IllTyped
// (called after the package's imports). Errors are matched by package, not
// file: a cgo package's errors name its source files, not the generated
// files that were parsed.
func forgiveUnusedImports(p *packages.Package, stripped *sync.Map) {
	if slices.ContainsFunc(p.CompiledGoFiles, func(name string) bool { _, ok := stripped.Load(name); return ok }) {
		unused := func(msg string) bool { return strings.Contains(msg, "imported") && strings.HasSuffix(msg, "not used") }
		p.TypeErrors = slices.DeleteFunc(p.TypeErrors, func(e types.Error) bool { return e.Soft && unused(e.Msg) })
		p.Errors = slices.DeleteFunc(p.Errors, func(e packages.Error) bool { return e.Kind == packages.TypeError && unused(e.Msg) })
	}
	p.IllTyped = len(p.Errors) > 0
	for _, imp := range p.Imports {
		p.IllTyped = p.IllTyped || imp.IllTyped
	}
}
