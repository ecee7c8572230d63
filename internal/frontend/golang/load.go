package golang

// The in-process route, for a build cache with nothing in it: go vet would
// first compile every dependency (what go build does), which costs many
// times the analysis. Here the packages are loaded from source in this
// process, one package at a time in dependency order and in parallel, as
// go vet does: each is parsed, type-checked and analyzed, then its syntax
// and type information are dropped, and only its types (for its
// importers) and facts stay. The dependencies outside the analyzed
// packages are type-checked from their declarations only, without function
// bodies, unless a file may make them export a fact.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/pidlint/pidlint/analyzer"
	"github.com/pidlint/pidlint/internal/frontend/golang/plan"
)

// A loader loads and analyzes one build's package graph.
type loader struct {
	resolver  resolver
	out       *build
	analyzers []*analysis.Analyzer // the pidlint analyzer and what it requires, in order
	pidlint   *analysis.Analyzer
	fset      *token.FileSet
	keep      func(file string) bool // files whose function bodies are kept
	facts     *factStore
	cpu       chan struct{} // a token per CPU: parsing and type-checking are CPU-bound
	mu        sync.Mutex    // guards out
	nodes     map[*packages.Package]*node
}

// A node is one package of the graph.
type node struct {
	pkg   *packages.Package
	root  bool
	done  chan struct{} // closed once types (or failed) is set
	types *types.Package
	// failed: the package, or one it imports, does not type-check; its
	// importers are not analyzed, as no driver analyzes ill-typed code.
	failed bool
}

// load analyzes the build in this process.
func (cfg config) load(b plan.Build) (*build, error) {
	a := analyzer.New(analyzer.Config{Cache: cfg.GOROOT})
	for _, arg := range cfg.AnalyzerArgs {
		name, value, _ := strings.Cut(strings.TrimPrefix(arg, "-"), "=")
		if err := a.Flags.Set(name, value); err != nil {
			return nil, fmt.Errorf("-%s: %v", name, err)
		}
	}
	if cfg.Go.Verbose {
		fmt.Fprintf(cfg.Go.Log, "pidlint: GOOS=%s: loading %s in-process (the build cache is empty)\n", b.GOOS, strings.Join(b.Patterns, " "))
	}
	graph := &packages.Config{
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir:   cfg.Go.Dir,
		Tests: cfg.Tests,
		Env:   append(os.Environ(), "GOOS="+b.GOOS),
	}
	roots, err := packages.Load(graph, b.Patterns...)
	if err != nil {
		return nil, err
	}
	l := &loader{
		resolver:  resolver{dir: cfg.dir, src: cfg.Source},
		out:       newBuild(b.GOOS),
		analyzers: requiredFirst(a),
		pidlint:   a,
		fset:      token.NewFileSet(),
		keep:      func(name string) bool { return b.Dirs[filepath.Dir(name)] },
		facts:     newFactStore(),
		cpu:       make(chan struct{}, runtime.GOMAXPROCS(0)),
		nodes:     make(map[*packages.Package]*node),
	}
	if len(roots) == 0 {
		l.out.general = append(l.out.general, fmt.Sprintf("%s matched no packages", strings.Join(b.Patterns, " ")))
		return l.out, nil
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		l.nodes[p] = &node{pkg: p, done: make(chan struct{})}
	})
	for _, p := range roots {
		l.nodes[p].root = !isTestMain(p)
	}
	var wg sync.WaitGroup
	for _, n := range l.nodes {
		wg.Go(func() { l.process(n) })
	}
	wg.Wait()
	return l.out, nil
}

// isTestMain reports whether p is the main package go test generates.
func isTestMain(p *packages.Package) bool {
	return p.Name == "main" && strings.HasSuffix(p.ID, ".test")
}

// requiredFirst lists a and the analyzers it requires, each after those it
// requires.
func requiredFirst(a *analysis.Analyzer) []*analysis.Analyzer {
	var list []*analysis.Analyzer
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(*analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			visit(req)
		}
		list = append(list, a)
	}
	visit(a)
	return list
}

// process loads and analyzes n once the packages it imports are done.
func (l *loader) process(n *node) {
	defer close(n.done)
	for _, imp := range n.pkg.Imports {
		dep := l.nodes[imp]
		<-dep.done
		n.failed = n.failed || dep.failed
	}
	for _, e := range n.pkg.Errors {
		l.fail(n, packageError(e))
	}
	l.cpu <- struct{}{}
	defer func() { <-l.cpu }()
	files, info, mayExport, ok := l.check(n)
	if !ok || n.failed || !n.root && !mayExport {
		return
	}
	diags, err := l.analyze(n, files, info)
	if err != nil {
		l.fail(n, err.Error())
		return
	}
	if n.root {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, d := range diags {
			l.out.add(l.resolver, diagnosticOf(n.pkg.PkgPath, l.fset, d))
		}
	}
}

// fail records why n could not be analyzed.
func (l *loader) fail(n *node, msg string) {
	n.failed = true
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.out.failed[n.pkg.PkgPath] == "" {
		l.out.failed[n.pkg.PkgPath] = msg
	}
}

// check parses and type-checks n. It reports whether a file of n may make
// it export a fact (its function bodies are kept then), and false when
// n does not type-check.
func (l *loader) check(n *node) (files []*ast.File, info *types.Info, mayExport, ok bool) {
	srcs := make([][]byte, len(n.pkg.CompiledGoFiles))
	for i, name := range n.pkg.CompiledGoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			l.fail(n, err.Error())
			return nil, nil, false, false
		}
		srcs[i] = src
	}
	mayExport = analyzer.MayExportFacts(srcs...)
	stripped := false
	for i, name := range n.pkg.CompiledGoFiles {
		f, err := parser.ParseFile(l.fset, name, srcs[i], parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			l.fail(n, err.Error())
			return nil, nil, false, false
		}
		if !n.root && !mayExport && !l.keep(name) {
			dropBodies(f)
			stripped = true
		}
		files = append(files, f)
	}
	info = &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	var firstErr error
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			imp, ok := n.pkg.Imports[path]
			if !ok || l.nodes[imp].types == nil {
				return nil, fmt.Errorf("could not import %s", path)
			}
			return l.nodes[imp].types, nil
		}),
		Sizes: types.SizesFor("gc", runtime.GOARCH),
		Error: func(err error) {
			// Without their bodies, a package's imports and variables
			// may go unused.
			if te, ok := err.(types.Error); ok && te.Soft && stripped && unusedError(te.Msg) {
				return
			}
			if firstErr == nil {
				firstErr = err
			}
		},
	}
	if m := n.pkg.Module; m != nil && m.GoVersion != "" {
		tc.GoVersion = "go" + m.GoVersion
	}
	n.types, _ = tc.Check(n.pkg.PkgPath, l.fset, files, info)
	if firstErr != nil {
		l.fail(n, firstErr.Error())
		return nil, nil, false, false
	}
	return files, info, mayExport, true
}

func unusedError(msg string) bool {
	return strings.Contains(msg, "imported") && strings.HasSuffix(msg, "not used") || strings.HasSuffix(msg, "declared and not used")
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// dropBodies removes the bodies of f's functions, but for those the type
// checker insists on (init, generic functions).
func dropBodies(f *ast.File) {
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Name.Name != "init" && fd.Type.TypeParams == nil {
			fd.Body = nil
		}
	}
}

// diagnosticOf reads an analysis diagnostic as the vet route reads one
// from go vet's JSON: positions after //line directives, edits by offsets
// in the file parsed.
func diagnosticOf(pkg string, fset *token.FileSet, diag analysis.Diagnostic) diagnostic {
	d := diagnostic{pkg: pkg, category: diag.Category, message: diag.Message}
	if rule, ok := analyzer.RuleOf(diag); ok {
		d.rule = rule.ID
	}
	at := func(pos token.Pos) lineCol {
		p := fset.Position(pos)
		return lineCol{p.Filename, p.Line, p.Column}
	}
	d.pos, d.end = at(diag.Pos), at(diag.Pos)
	if diag.End.IsValid() {
		d.end = at(diag.End)
	}
	for _, sf := range diag.SuggestedFixes {
		fx := diagnosticFix{message: sf.Message}
		for _, te := range sf.TextEdits {
			end := te.End
			if !end.IsValid() {
				end = te.Pos
			}
			e := diagnosticEdit{
				file:  fset.Position(te.Pos).Filename,
				start: fset.Position(te.Pos).Offset,
				end:   fset.Position(end).Offset,
				new:   string(te.NewText),
			}
			if parsed := fset.PositionFor(te.Pos, false).Filename; parsed != e.file {
				e.generated = parsed // a file cgo generated
			}
			fx.edits = append(fx.edits, e)
		}
		d.fixes = append(d.fixes, fx)
	}
	return d
}

// packageError is e's message, with its position when it has one
// (packages.Error prints a missing one as "-").
func packageError(e packages.Error) string {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg
	}
	return e.Pos + ": " + e.Msg
}
