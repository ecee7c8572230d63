package analyzer

import (
	_ "embed"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

//go:embed doc.go
var doc string

// DefaultSafeprobePath is the import path suggested fixes use unless the
// -safeprobe flag names another (a vendored or forked copy).
const DefaultSafeprobePath = "github.com/pidlint/pidlint/safeprobe"

// Analyzer is pidlint with its defaults; its flags are -strict, -safeprobe
// and -disable.
var Analyzer = New()

// Config is what a driver may set besides the analyzer's flags.
type Config struct {
	Strict        bool     // also report raw probes that are correct where they stand
	SafeprobePath string   // import path for suggested fixes
	Disable       []string // rules not to report, by ID or name
}

// New returns a pidlint analyzer with its own flags, defaulting to cfg.
// Drivers that configure the analyzer in code (the golangci-lint plugin)
// call New instead of mutating Analyzer's flags. New panics if
// cfg.Disable names an unknown rule: check user input with ParseRules.
func New(cfg ...Config) *analysis.Analyzer {
	c := &config{safeprobe: DefaultSafeprobePath}
	if len(cfg) > 0 {
		c.strict = cfg[0].Strict
		if cfg[0].SafeprobePath != "" {
			c.safeprobe = cfg[0].SafeprobePath
		}
		if err := c.disable.Set(strings.Join(cfg[0].Disable, ",")); err != nil {
			panic("analyzer.New: Config.Disable: " + err.Error())
		}
	}
	a := &analysis.Analyzer{
		Name:      "pidlint",
		Doc:       extractDoc(doc),
		URL:       "https://pkg.go.dev/github.com/pidlint/pidlint/analyzer",
		Requires:  []*analysis.Analyzer{inspect.Analyzer},
		FactTypes: []analysis.Fact{new(wrapperFact), new(hasWrappersFact), new(storedPIDFact), new(signalsPIDFact)},
		Run:       c.run,
	}
	a.Flags.BoolVar(&c.strict, "strict", c.strict,
		"also report raw probes that are correct where they stand (category raw-probe): for code that routes every probe through safeprobe")
	a.Flags.StringVar(&c.safeprobe, "safeprobe", c.safeprobe,
		"import path of the safeprobe package that suggested fixes call")
	a.Flags.Var(&c.disable, "disable", "comma-separated rules not to report, by ID or name, e.g. PL004,shell-probe")
	return a
}

// config holds one analyzer's flag values. run only reads it.
type config struct {
	strict    bool
	safeprobe string
	disable   ruleList
}

// ruleList is a flag.Value of comma-separated rule IDs or names; it holds
// their IDs.
type ruleList []string

func (l *ruleList) String() string { return strings.Join(*l, ",") }

func (l *ruleList) Set(s string) error {
	ids, err := ParseRules(s)
	if err != nil {
		return err
	}
	*l = ids
	return nil
}

// extractDoc returns the "# Analyzer pidlint" section of the package doc.
func extractDoc(src string) string {
	_, after, ok := strings.Cut(src, "// # Analyzer pidlint\n")
	if !ok {
		panic("doc.go: no # Analyzer pidlint section")
	}
	var lines []string
	for line := range strings.SplitSeq(after, "\n") {
		if !strings.HasPrefix(line, "//") {
			break
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(line, "//"), " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// probePackages are the imports without which no rule can match directly.
var probePackages = []string{"os", "os/exec", syscallPath, unixPath}

func (c *config) run(pass *analysis.Pass) (any, error) {
	r := &runner{
		pass:    pass,
		cfg:     c,
		in:      pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		files:   make(map[*token.File]*fileState),
		ignored: make(map[string]*fileState),
	}
	if c.relevant(pass) {
		r.wrappers = findWrappers(pass, r.in)
		for cur := range r.in.Root().Preorder((*ast.CallExpr)(nil)) {
			r.call(cur)
		}
		for i := range Rules {
			// A disabled package-wide rule costs nothing (its work is all
			// its own) unless a //pidlint:ignore names it: a directive
			// must still find what it suppresses.
			id := Rules[i].ID
			if check := Rules[i].pkg; check != nil && (!slices.Contains(c.disable, id) || r.ignoresRule(id)) {
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
	for _, imp := range pass.Pkg.Imports() {
		if pass.ImportPackageFact(imp, new(hasWrappersFact)) {
			return true
		}
	}
	return false
}

// A runner is one run of the analyzer on one package.
type runner struct {
	pass     *analysis.Pass
	cfg      *config
	in       *inspector.Inspector
	files    map[*token.File]*fileState
	order    []*fileState // files in the order first seen, for stable output
	wrappers map[*types.Func]*wrapperFact
	ignored  map[string]*fileState // ignored files parsed, by name
	flow     *pidFlow              // stored PIDs, for PL007 and PL008
}

// fileState is what the runner knows and has found in one file.
type fileState struct {
	file     *ast.File
	tf       *token.File
	os       goos.Set // the OSes the file builds for
	findings []*finding
	src      []byte // read on demand, for fix texts
}

// A finding is a diagnostic before suppression and import fix-up.
type finding struct {
	rule     string
	rawProbe bool // reported only with -strict, category raw-probe
	// everywhere: wrong wherever the code runs on an OS it builds for,
	// however its result is handled (Signal(0) on Windows).
	everywhere bool
	hidden     bool // not reported: a raw probe outside -strict, or a disabled rule
	pos, end   token.Pos
	msg        string
	fix        *fixPlan
}

func (r *runner) fileOf(pos token.Pos) *fileState {
	tf := r.pass.Fset.File(pos)
	if fs, ok := r.files[tf]; ok {
		return fs
	}
	for _, f := range r.pass.Files {
		if r.pass.Fset.File(f.Pos()) == tf {
			fs := &fileState{file: f, tf: tf, os: goos.OfFile(r.pass.Fset, tf.Name(), f)}
			r.files[tf] = fs
			r.order = append(r.order, fs)
			return fs
		}
	}
	return nil
}

func (r *runner) source(fs *fileState, n ast.Node) string {
	if !r.readSource(fs) {
		return types.ExprString(n.(ast.Expr))
	}
	return string(fs.src[fs.tf.Offset(n.Pos()):fs.tf.Offset(n.End())])
}

// readSource reads the file's source, once; it reports whether it has it.
func (r *runner) readSource(fs *fileState) bool {
	if fs.src == nil {
		src, err := r.pass.ReadFile(fs.tf.Name())
		if err != nil || len(src) != fs.tf.Size() {
			return false
		}
		fs.src = src
	}
	return true
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
	call := cur.Node().(*ast.CallExpr)
	info := r.pass.TypesInfo
	fn := callee(info, call)
	if fn == nil {
		return
	}
	rule, check := r.checkOf(fn)
	if check == nil {
		return
	}
	fs := r.fileOf(call.Pos())
	if fs == nil {
		return
	}
	os := guardedOS(info, cur, fs.os)
	if os == 0 {
		return // this code builds for no OS
	}
	check(&site{rule: rule, r: r, fs: fs, cur: cur, call: call, fn: fn, os: os})
}

// checkOf returns the first rule (in Rules' order) that checks calls of fn,
// and its check.
func (r *runner) checkOf(fn *types.Func) (string, func(*site)) {
	for i := range Rules {
		for _, c := range Rules[i].calls {
			if c.matches(r, fn) {
				return Rules[i].ID, c.check
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
		for i := range Rules {
			if check := Rules[i].ignoredFile; check != nil {
				check(r, name, src, Rules[i].ID)
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
		fs = &fileState{file: f, tf: r.pass.Fset.File(f.Pos()), os: goos.OfFile(r.pass.Fset, name, f)}
		r.files[fs.tf] = fs
		r.order = append(r.order, fs)
	}
	r.ignored[name] = fs
	return fs
}
