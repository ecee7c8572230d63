package pidflow

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
)

// Flow is what one package does with PIDs.
type Flow struct {
	pass *analysis.Pass
	cls  *calls.Classifier
	opts Options

	units  []*unit
	unitOf map[*types.Func]*unit

	globals        map[*ssa.Global]map[string]labels // labels written below the package's variables
	globalsChanged bool
	// fields are the stored PIDs given to a field of a struct type of the
	// package anywhere in it: what a read of the field holds where no
	// caller shows where its value came from (d.load() then d.stop()).
	fields        map[*types.Var]labels
	fieldsChanged bool

	sources   map[sourceKey]*Source // every Source, made once per read
	sites     map[ssa.CallInstruction]*sinkSite
	siteOrder []*sinkSite
	creates   []*create // O_EXCL creates, for PL008

	safeLocked map[string]bool // files the package locks with safeprobe

	imports map[*types.Func]*summary    // facts of other packages' functions, as summaries
	callAt  map[token.Pos]*ast.CallExpr // the package's calls, by their Lparen (SSA's position of a call)
}

// Options are what a driver sets for one package's flow.
type Options struct {
	// MaxInstructions skips a function (with its literals) larger than
	// this many SSA instructions; 0 means 5,000.
	MaxInstructions int
	// Debugf, if set, is told what was skipped and why.
	Debugf func(format string, args ...any)
}

// maxRounds bounds the rounds over the package's functions until their
// summaries stop changing (helpers of helpers, recursion).
const maxRounds = 8

// New follows the package's PIDs and exports the facts of its exported
// functions. It builds the package's SSA form only when a call in it can
// read, signal or probe a PID, or calls a function another package's
// fact describes; otherwise it has nothing to report.
func New(pass *analysis.Pass, in *inspector.Inspector, cls *calls.Classifier, opts Options) *Flow {
	if opts.MaxInstructions == 0 {
		opts.MaxInstructions = 5000
	}
	f := &Flow{pass: pass, cls: cls, opts: opts, unitOf: map[*types.Func]*unit{},
		globals: map[*ssa.Global]map[string]labels{}, fields: map[*types.Var]labels{}, sources: map[sourceKey]*Source{},
		sites: map[ssa.CallInstruction]*sinkSite{}, safeLocked: map[string]bool{}, imports: map[*types.Func]*summary{}}
	if inGOROOT(pass) || !f.worthFollowing(in) {
		return f
	}
	pkg, err := buildSSA(pass)
	if err != nil {
		f.debugf("%s: no value flow: %v", pass.Pkg.Path(), err)
		return f
	}
	f.callAt = map[token.Pos]*ast.CallExpr{}
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		f.callAt[call.Lparen] = call
	}
	f.makeUnits(pass, in, pkg)
	f.run()
	exportFacts(f)
	return f
}

// worthFollowing reports whether a call in the package can read, signal
// or probe a PID, or has a fact: the pre-filter that spares the SSA build.
func (f *Flow) worthFollowing(in *inspector.Inspector) bool {
	const roles = calls.ReadFile | calls.Kill | calls.SyscallKill | calls.ProcessSignal | calls.ProcessKill |
		calls.FindProcess | calls.Command | calls.CreateFile | calls.StatFile | calls.Safeprobe
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		fn := calls.Callee(f.pass.TypesInfo, cur.Node().(*ast.CallExpr))
		if fn == nil {
			continue
		}
		if calls.RolesOf(fn, f.cls.Safeprobe)&roles != 0 || fn.Pkg() != f.pass.Pkg && f.imported(fn) != nil {
			return true
		}
		if p := pkgPath(fn); isGopsutil(p) || decoderPackages[p] || p == "database/sql" || p == "os" && (fn.Name() == "Getenv" || fn.Name() == "LookupEnv") {
			return true
		}
	}
	return false
}

// makeUnits makes a unit of each declared function with a body, and of
// the package initializer, skipping those too large to follow.
func (f *Flow) makeUnits(pass *analysis.Pass, in *inspector.Inspector, pkg *ssa.Package) {
	add := func(fn *ssa.Function, obj *types.Func) {
		if fn == nil || len(fn.Blocks) == 0 {
			return
		}
		u := newUnit(f, fn, obj)
		if u.size > f.opts.MaxInstructions {
			f.debugf("%s: %s not followed: %d SSA instructions (the bound is %d)",
				pass.Fset.Position(fn.Pos()), fn.Name(), u.size, f.opts.MaxInstructions)
			return
		}
		f.units = append(f.units, u)
		if obj != nil {
			f.unitOf[obj] = u
		}
	}
	add(pkg.Func("init"), nil)
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && fd.Body != nil {
			add(pkg.Prog.FuncValue(obj), obj)
		}
	}
}

// run follows the package's units, round after round, until no summary
// and no package variable changes.
func (f *Flow) run() {
	for range maxRounds {
		f.globalsChanged, f.fieldsChanged = false, false
		changed := false
		for _, u := range f.units {
			before := ""
			if u.done != nil {
				before = u.done.key()
			}
			u.transfer()
			u.done = u.sum
			changed = changed || u.sum.key() != before
		}
		if !changed && !f.globalsChanged && !f.fieldsChanged {
			return
		}
	}
}

func (f *Flow) debugf(format string, args ...any) {
	if f.opts.Debugf != nil {
		f.opts.Debugf(format, args...)
	}
}

// WritesOwnPID reports whether a function of the package writes its own
// PID somewhere: whether it may keep a PID file.
func (f *Flow) WritesOwnPID() bool {
	for _, u := range f.units {
		if u.sum != nil && u.sum.flags&fOwnPID != 0 {
			return true
		}
	}
	return false
}

// imported returns the summary another package's fact gives obj, or nil.
func (f *Flow) imported(obj *types.Func) *summary {
	obj = obj.Origin()
	if s, ok := f.imports[obj]; ok {
		return s
	}
	var s *summary
	var fact facts.FuncFlow
	if obj.Pkg() != f.pass.Pkg && f.pass.ImportObjectFact(obj, &fact) {
		s = summaryOf(&fact, obj)
	}
	f.imports[obj] = s
	return s
}
