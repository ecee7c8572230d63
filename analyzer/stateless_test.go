package analyzer_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/pidlint/pidlint/analyzer"
)

// TestNoPackageStateWrites checks that no function in the analyzer's
// packages (tests aside) assigns, increments, deletes from or takes the
// address of a package-level variable, or writes through one: drivers
// that run the analyzer on many packages at once (go/analysis checker,
// gopls, Bazel nogo) share its package state, and configuration belongs in
// Analyzer.Flags or New's Config.
func TestNoPackageStateWrites(t *testing.T) {
	t.Parallel()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, "github.com/pidlint/pidlint/analyzer/...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the analyzer's packages do not load")
	}
	var violations []string
	for _, pkg := range pkgs {
		c := &stateChecker{pkg: pkg}
		for _, f := range pkg.Syntax {
			// Every function body, including function literals in
			// package-level initializers (they run later, per pass).
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					if n.Body != nil {
						c.body(n.Body)
					}
					return false
				case *ast.FuncLit:
					c.body(n.Body)
					return false
				}
				return true
			})
		}
		violations = append(violations, c.violations...)
		if len(pkg.Syntax) == 0 {
			t.Errorf("%s: no files checked", pkg.PkgPath)
		}
	}
	if len(pkgs) < 2 {
		t.Errorf("checked %d packages; want analyzer and its internal packages", len(pkgs))
	}
	for _, v := range violations {
		t.Error(v)
	}
}

type stateChecker struct {
	pkg        *packages.Package
	violations []string
}

func (c *stateChecker) report(n ast.Node, what string, v *types.Var) {
	pos := c.pkg.Fset.Position(n.Pos())
	c.violations = append(c.violations, fmt.Sprintf("%s: %s package-level variable %s.%s", pos, what, v.Pkg().Name(), v.Name()))
}

// body checks one function body; nested function literals are walked as
// part of it.
func (c *stateChecker) body(body *ast.BlockStmt) {
	info := c.pkg.TypesInfo
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				return true // declares locals (reused names are local too)
			}
			for _, lhs := range n.Lhs {
				if v := c.root(lhs); v != nil {
					c.report(lhs, "assigns", v)
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if v := c.root(e); e != nil && v != nil {
						c.report(e, "assigns", v)
					}
				}
			}
		case *ast.IncDecStmt:
			if v := c.root(n.X); v != nil {
				c.report(n, "increments or decrements", v)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := c.root(n.X); v != nil {
					c.report(n, "takes the address of", v)
				}
			}
		case *ast.CallExpr:
			// delete, clear and copy write to their first argument.
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) > 0 {
				if b, ok := info.Uses[id].(*types.Builtin); ok && slices.Contains([]string{"delete", "clear", "copy"}, b.Name()) {
					if v := c.root(n.Args[0]); v != nil {
						c.report(n, b.Name()+" writes to", v)
					}
				}
			}
		case *ast.SelectorExpr:
			// x.M() with a pointer receiver takes &x implicitly.
			if sel := info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal {
				if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					_, ptrRecv := sig.Recv().Type().Underlying().(*types.Pointer)
					_, ptrX := info.TypeOf(n.X).Underlying().(*types.Pointer)
					if ptrRecv && !ptrX {
						if v := c.root(n.X); v != nil {
							c.report(n, "calls a pointer method on (taking the address of)", v)
						}
					}
				}
			}
		}
		return true
	})
}

// root returns the package-level variable that e denotes or is a part
// of (a field, an element, or what it points to), or nil.
func (c *stateChecker) root(e ast.Expr) *types.Var {
	info := c.pkg.TypesInfo
	for {
		switch x := e.(type) {
		case nil:
			return nil
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			return nil // an instantiated generic function, not a variable
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				if _, ok := info.Uses[id].(*types.PkgName); ok {
					return packageVar(info.Uses[x.Sel]) // pkg.Var
				}
			}
			if sel := info.Selections[x]; sel == nil || sel.Kind() != types.FieldVal {
				return nil // a method value
			}
			e = x.X
		case *ast.Ident:
			return packageVar(info.Uses[x])
		default:
			return nil // a call's result, a literal…: not a variable
		}
	}
}

// packageVar returns obj if it is a package-level variable.
func packageVar(obj types.Object) *types.Var {
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Pkg().Scope().Lookup(v.Name()) != v {
		return nil
	}
	return v
}

// quiet is an analysistest.Testing that ignores unmet expectations: the
// test compares whole runs instead.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}

// statePackages are testdata packages that exercise several rules, facts
// across packages, directives and fixes.
var statePackages = []string{"killzero", "signalzero", "procstat", "wrapper/procutil", "wrapper/daemon", "ignore"}

// TestRunTwice runs the analyzer with analysistest, then twice more at
// the same time, with checker.Analyze (analysistest's engine), on the very
// packages analysistest loaded and with the same *analysis.Analyzer: the
// three runs must report the same diagnostics, fixes and facts. A run that
// left state behind (in the analyzer, or keyed by the packages' type
// objects), or two runs that shared it, would differ, or race under -race.
func TestRunTwice(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("analyzes the testdata three times")
	}
	results := analysistest.Run(quiet{}, testdata, analyzer.Analyzer, statePackages...)
	var pkgs []*packages.Package
	var roots []*checker.Action
	for _, r := range results {
		pkgs = append(pkgs, r.Action.Package)
		roots = append(roots, r.Action)
	}
	first := summarize(roots)
	if !strings.Contains(first, "PL006") || !strings.Contains(first, "fact ") {
		t.Fatalf("the first run reports no PL006 or no facts: the test would prove little:\n%s", first)
	}
	var again [2]string
	var wg sync.WaitGroup
	for i := range again {
		wg.Go(func() {
			graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.Analyzer}, pkgs, nil)
			if err != nil {
				again[i] = err.Error()
				return
			}
			again[i] = summarize(graph.Roots)
		})
	}
	wg.Wait()
	for i, s := range again {
		if s != first {
			t.Errorf("run %d differs from the first:\n%s\nfirst:\n%s", i+2, s, first)
		}
	}
}

// summarize prints the results of a run in a form that runs can compare.
func summarize(roots []*checker.Action) string {
	var lines []string
	for _, act := range roots {
		fset := act.Package.Fset
		pos := func(p token.Pos) string {
			position := fset.Position(p)
			return fmt.Sprintf("%s:%d:%d", position.Filename, position.Line, position.Column)
		}
		if act.Err != nil {
			lines = append(lines, fmt.Sprintf("%s: error %v", act.Package.PkgPath, act.Err))
		}
		for _, d := range act.Diagnostics {
			lines = append(lines, fmt.Sprintf("%s-%s [%s] %s", pos(d.Pos), pos(d.End), d.Category, d.Message))
			for _, f := range d.SuggestedFixes {
				lines = append(lines, "  fix "+f.Message)
				for _, e := range f.TextEdits {
					lines = append(lines, fmt.Sprintf("    %s-%s %q", pos(e.Pos), pos(e.End), e.NewText))
				}
			}
		}
		for _, f := range act.AllObjectFacts() {
			lines = append(lines, fmt.Sprintf("fact %s %s.%s: %s", act.Package.PkgPath, f.Object.Pkg().Path(), f.Object.Name(), factString(f.Fact)))
		}
		for _, f := range act.AllPackageFacts() {
			lines = append(lines, fmt.Sprintf("fact %s package %s: %s", act.Package.PkgPath, f.Package.Path(), factString(f.Fact)))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

func factString(f analysis.Fact) string {
	if s, ok := f.(fmt.Stringer); ok {
		return fmt.Sprintf("%T %s", f, s)
	}
	return fmt.Sprintf("%T %+v", f, f)
}
