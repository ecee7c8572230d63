package analyzer

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
	"github.com/pidlint/pidlint/analyzer/internal/pidflow"
	"github.com/pidlint/pidlint/analyzer/internal/wrappers"
)

// probePackages are the imports without which no rule can match directly.
var probePackages = []string{"os", "os/exec", calls.Syscall, calls.Unix}

func (c *config) run(pass *analysis.Pass) (any, error) {
	r := &runner{
		pass:    pass,
		cfg:     c,
		in:      pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		files:   make(map[*token.File]*fileState),
		ignored: make(map[string]*fileState),
	}
	r.cls = &calls.Classifier{Info: pass.TypesInfo, Safeprobe: c.safeprobe, Wrapper: r.wrapperOf}
	if c.relevant(pass) {
		r.wrappers = wrappers.FindWrappers(pass, r.in)
		for cur := range r.in.Root().Preorder((*ast.CallExpr)(nil)) {
			r.call(cur)
		}
		for i := range checkers {
			// A disabled package-wide rule costs nothing (its work is all
			// its own) unless a //pidlint:ignore names it: a directive
			// must still find what it suppresses.
			id := checkers[i].rule
			if check := checkers[i].pkg; check != nil && (!slices.Contains(c.disable, id) || r.ignoresRule(id)) {
				check(r, id)
			}
		}
	}
	r.checkIgnoredFiles()
	r.report()
	return nil, nil
}

// relevant reports whether the package can contain a finding: it imports a
// probe package, or a package that exports wrapper facts, or it is one of
// the packages that define the probes (their own tests).
func (c *config) relevant(pass *analysis.Pass) bool {
	if slices.Contains(probePackages, pass.Pkg.Path()) {
		return true
	}
	for _, imp := range pass.Pkg.Imports() {
		if slices.Contains(probePackages, imp.Path()) {
			return true
		}
	}
	return facts.ImportsAny(pass)
}

// A runner is one run of the analyzer on one package.
type runner struct {
	pass     *analysis.Pass
	cfg      *config
	in       *inspector.Inspector
	cls      *calls.Classifier
	files    map[*token.File]*fileState
	order    []*fileState // files in the order first seen, for stable output
	wrappers map[*types.Func]*facts.Wrapper
	ignored  map[string]*fileState // ignored files parsed, by name
	flow     *pidflow.Flow         // stored PIDs, for PL007 and PL008
	// noWindows: the package cannot build for windows (a file that
	// builds there calls syscall.Kill), without and with its _test.go
	// files; nil until asked.
	noWindows [2]*bool
}

// buildable narrows s, the OSes some code of fs builds for by its file's
// constraints, to those the package can build for: a message must not
// speak of windows for a package that does not build there. The package
// is its non-test files, and its test files too for code in one of them.
func (r *runner) buildable(fs *fileState, s goos.Set) goos.Set {
	if !s.Has(goos.Windows) {
		return s
	}
	tests := 0
	if strings.HasSuffix(fs.tf.Name(), "_test.go") {
		tests = 1
	}
	if r.noWindows[tests] == nil {
		files := r.pass.Files
		if tests == 0 {
			files = slices.DeleteFunc(slices.Clone(files), func(f *ast.File) bool {
				return strings.HasSuffix(r.pass.Fset.File(f.Pos()).Name(), "_test.go")
			})
		}
		std := new(goos.Std)
		if r.cfg.cache != nil {
			std = &r.cfg.cache.std
		}
		no := std.CannotBuild(r.pass.Fset, r.pass.TypesInfo, files, "windows")
		r.noWindows[tests] = &no
	}
	if *r.noWindows[tests] {
		s &^= goos.Windows
	}
	return s
}

// wrapperOf returns the wrapper fact of fn, from this package or an
// imported one.
func (r *runner) wrapperOf(fn *types.Func) *facts.Wrapper {
	return facts.Of(r.pass, r.wrappers, fn)
}

// pidFlow follows the package's PIDs once, for PL007 and PL008.
func (r *runner) pidFlow() *pidflow.Flow {
	if r.flow == nil {
		opts := pidflow.Options{MayExport: r.mayExportFacts}
		if r.cfg.debug && len(r.pass.Files) > 0 {
			// A diagnostic of its own category: drivers print it as
			// they print findings; pidlint's own as a note.
			pos := r.pass.Files[0].Package
			opts.Debugf = func(format string, args ...any) {
				r.pass.Report(analysis.Diagnostic{Pos: pos, Category: DebugCategory, Message: "pidlint: debug: " + fmt.Sprintf(format, args...)})
			}
		}
		r.flow = pidflow.New(r.pass, r.in, r.cls, opts)
	}
	return r.flow
}

// mayExportFacts reports whether MayExportFacts accepts the package's
// files: go vet's tool skips a package it rejects as it builds the
// package's importers, so no fact may come from one.
func (r *runner) mayExportFacts() bool {
	var srcs [][]byte
	for _, f := range r.pass.Files {
		src, err := r.pass.ReadFile(r.pass.Fset.File(f.Pos()).Name())
		if err != nil {
			return true // cannot tell: export what there is
		}
		srcs = append(srcs, src)
	}
	return MayExportFacts(srcs...)
}

func (r *runner) fileOf(pos token.Pos) *fileState {
	tf := r.pass.Fset.File(pos)
	if fs, ok := r.files[tf]; ok {
		return fs
	}
	for _, f := range r.pass.Files {
		if r.pass.Fset.File(f.Pos()) == tf {
			return r.addFile(f)
		}
	}
	return nil
}

func (r *runner) addFile(f *ast.File) *fileState {
	tf := r.pass.Fset.File(f.Pos())
	fs := &fileState{file: f, tf: tf, os: goos.OfFile(r.pass.Fset, tf.Name(), f), read: r.pass.ReadFile}
	r.files[tf] = fs
	r.order = append(r.order, fs)
	return fs
}

func (r *runner) add(fs *fileState, f *finding) {
	if !f.everywhere && !f.rawProbe && strings.HasSuffix(fs.tf.Name(), "_test.go") {
		// Tests probe children they started themselves, where EPERM
		// cannot arise; only -strict holds them to safeprobe.
		f.rawProbe = true
		f.msg = "raw liveness probe in a test: " + f.msg
	}
	// Hidden findings are not reported, but still use up the
	// //pidlint:ignore directives written for them.
	f.hidden = f.rawProbe && (!r.cfg.strict || r.inSafeprobe()) || slices.Contains(r.cfg.disable, f.rule)
	fs.findings = append(fs.findings, f)
}

// inSafeprobe reports whether the package is safeprobe itself, whose raw
// probes are the implementation.
func (r *runner) inSafeprobe() bool {
	p := r.pass.Pkg.Path()
	return p == r.cfg.safeprobe || strings.HasPrefix(p, r.cfg.safeprobe+"/")
}

// call dispatches one call expression to the rule that checks its callee.
func (r *runner) call(cur inspector.Cursor) {
	k := r.cls.Of(cur.Node().(*ast.CallExpr))
	if k.Fn == nil {
		return
	}
	rule, check := checkOf(k.Role)
	if check == nil {
		return
	}
	fs := r.fileOf(k.Expr.Pos())
	if fs == nil {
		return
	}
	os := r.buildable(fs, goos.Guarded(r.pass.TypesInfo, cur, fs.os))
	if os == 0 {
		return // this code builds for no OS
	}
	check(&site{Call: k, rule: rule, r: r, fs: fs, cur: cur, os: os})
}

// checkOf returns the first rule (in checkers' order) that checks calls
// with one of roles, and its check.
func checkOf(roles calls.Role) (string, func(*site)) {
	for i := range checkers {
		for _, c := range checkers[i].calls {
			if c.roles&roles != 0 {
				return checkers[i].rule, c.check
			}
		}
	}
	return "", nil
}

// checkIgnoredFiles gives the files that do not build on this host to the
// rules that check syntax alone.
func (r *runner) checkIgnoredFiles() {
	for _, name := range r.pass.IgnoredFiles {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		src, err := r.pass.ReadFile(name)
		if err != nil {
			continue
		}
		for i := range checkers {
			if check := checkers[i].ignoredFile; check != nil {
				check(r, name, src, checkers[i].rule)
			}
		}
	}
}

// parseIgnored parses an ignored file for a syntax check, once, and adds
// it to the files reported on. It returns nil when the file does not parse.
func (r *runner) parseIgnored(name string, src []byte) *fileState {
	if fs, ok := r.ignored[name]; ok {
		return fs
	}
	var fs *fileState
	if f, err := parser.ParseFile(r.pass.Fset, name, src, parser.ParseComments|parser.SkipObjectResolution); err == nil {
		fs = r.addFile(f)
	}
	r.ignored[name] = fs
	return fs
}
