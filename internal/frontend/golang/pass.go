package golang

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// analyze runs the loader's analyzers on n, each after those it requires,
// and returns the pidlint analyzer's diagnostics.
func (l *loader) analyze(n *node, files []*ast.File, info *types.Info) ([]analysis.Diagnostic, error) {
	results := make(map[*analysis.Analyzer]any)
	var diags []analysis.Diagnostic
	readable := slices.Concat(n.pkg.CompiledGoFiles, n.pkg.GoFiles, n.pkg.OtherFiles, n.pkg.IgnoredFiles)
	var module *analysis.Module
	if m := n.pkg.Module; m != nil {
		module = &analysis.Module{Path: m.Path, Version: m.Version, GoVersion: m.GoVersion}
	}
	for _, a := range l.analyzers {
		inputs := make(map[*analysis.Analyzer]any, len(a.Requires))
		for _, req := range a.Requires {
			inputs[req] = results[req]
		}
		pass := &analysis.Pass{
			Analyzer:     a,
			Fset:         l.fset,
			Files:        files,
			OtherFiles:   n.pkg.OtherFiles,
			IgnoredFiles: n.pkg.IgnoredFiles,
			Pkg:          n.types,
			TypesInfo:    info,
			TypesSizes:   types.SizesFor("gc", runtime.GOARCH),
			Module:       module,
			ResultOf:     inputs,
			Report: func(d analysis.Diagnostic) {
				if a == l.pidlint {
					diags = append(diags, d)
				}
			},
			ReadFile: func(name string) ([]byte, error) {
				if !slices.Contains(readable, name) {
					return nil, fmt.Errorf("%s is not a file of package %s", name, n.pkg.PkgPath)
				}
				return os.ReadFile(name)
			},
		}
		l.facts.bind(pass)
		result, err := a.Run(pass)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a.Name, err)
		}
		results[a] = result
	}
	return diags, nil
}

// A factStore holds the facts every analyzed package exported, for the
// packages that import it. Objects and packages are this process's, so
// facts are kept as they are, not encoded.
type factStore struct {
	mu   sync.Mutex
	objs map[objectFactKey]analysis.Fact
	pkgs map[packageFactKey]analysis.Fact
}

type objectFactKey struct {
	a   *analysis.Analyzer
	obj types.Object
	t   reflect.Type
}

type packageFactKey struct {
	a   *analysis.Analyzer
	pkg *types.Package
	t   reflect.Type
}

func newFactStore() *factStore {
	return &factStore{objs: make(map[objectFactKey]analysis.Fact), pkgs: make(map[packageFactKey]analysis.Fact)}
}

// bind gives pass its fact functions. Facts are exported only about the
// pass's own package and its objects, as every driver enforces.
func (s *factStore) bind(pass *analysis.Pass) {
	a := pass.Analyzer
	pass.ImportObjectFact = func(obj types.Object, fact analysis.Fact) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		f, ok := s.objs[objectFactKey{a, obj, reflect.TypeOf(fact)}]
		if ok {
			reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(f).Elem())
		}
		return ok
	}
	pass.ExportObjectFact = func(obj types.Object, fact analysis.Fact) {
		if obj.Pkg() != pass.Pkg {
			panic(fmt.Sprintf("%s: fact about %s exported from package %s", a.Name, obj, pass.Pkg.Path()))
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.objs[objectFactKey{a, obj, reflect.TypeOf(fact)}] = fact
	}
	pass.ImportPackageFact = func(pkg *types.Package, fact analysis.Fact) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		f, ok := s.pkgs[packageFactKey{a, pkg, reflect.TypeOf(fact)}]
		if ok {
			reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(f).Elem())
		}
		return ok
	}
	pass.ExportPackageFact = func(fact analysis.Fact) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.pkgs[packageFactKey{a, pass.Pkg, reflect.TypeOf(fact)}] = fact
	}
	pass.AllObjectFacts = func() []analysis.ObjectFact {
		s.mu.Lock()
		defer s.mu.Unlock()
		var out []analysis.ObjectFact
		for k, f := range s.objs {
			if k.a == a {
				out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
			}
		}
		return out
	}
	pass.AllPackageFacts = func() []analysis.PackageFact {
		s.mu.Lock()
		defer s.mu.Unlock()
		var out []analysis.PackageFact
		for k, f := range s.pkgs {
			if k.a == a {
				out = append(out, analysis.PackageFact{Package: k.pkg, Fact: f})
			}
		}
		return out
	}
}
