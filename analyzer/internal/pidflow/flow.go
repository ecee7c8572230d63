package pidflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
	"github.com/pidlint/pidlint/internal/shellcmd"
)

// Flow is what one package does with PIDs.
type Flow struct {
	pass *analysis.Pass
	in   *inspector.Inspector
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

	imports map[*types.Func]*summary         // facts of other packages' functions, as summaries
	callAt  map[token.Pos]*ast.CallExpr      // the package's calls, by their Lparen (SSA's position of a call)
	decls   map[*types.Func]inspector.Cursor // the package's function declarations, once asked (declOf)
}

// Options are what a driver sets for one package's flow.
type Options struct {
	// MaxInstructions skips a function (with its literals) larger than
	// this many SSA instructions; 0 means 5,000.
	MaxInstructions int
	// Debugf, if set, is told what was skipped and why.
	Debugf func(format string, args ...any)
	// MayExport, if set, says whether the package may export facts: a
	// driver that skips the packages a source pre-filter rejects must
	// never miss a fact, so none is exported where it answers false.
	MayExport func() bool
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
	f := &Flow{pass: pass, in: in, cls: cls, opts: opts, unitOf: map[*types.Func]*unit{},
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
	f.orderCalleesFirst()
	f.run()
	if opts.MayExport == nil || opts.MayExport() {
		exportFacts(f)
	}
	return f
}

// worthFollowing reports whether the package can have anything the flow
// finds, before its SSA form is built: a call that signals or probes a
// PID or writes the own PID (PL007, PL008), a call of a function another
// package's fact describes, or a read from storage in a package that
// names a PID in its declarations (whose exported functions may hand a
// stored PID to importers).
func (f *Flow) worthFollowing(in *inspector.Inspector) bool {
	const act = calls.Kill | calls.SyscallKill | calls.ProcessSignal | calls.ProcessKill | calls.FindProcess |
		calls.ThirdPartySignal | calls.ThirdPartyIdentity | calls.SafeAlive | calls.SafeCheck | calls.SafeProbe
	const read = calls.ReadFile | calls.SafeInspect
	const guard = calls.CreateFile | calls.StatFile | calls.WriteFile
	source, getpid, guards := false, false, false
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		fn := calls.Callee(f.pass.TypesInfo, call)
		if fn == nil {
			continue
		}
		r := calls.RolesOf(fn, f.cls.Safeprobe)
		switch {
		case r&act != 0, fn.Pkg() != f.pass.Pkg && f.imported(fn) != nil:
			return true
		case r&calls.Command != 0 && len(call.Args) > 0 && signalProgram(f.pass.TypesInfo, call):
			return true
		case r&read != 0, decoderPackages[pkgPath(fn)], pkgPath(fn) == "database/sql",
			pkgPath(fn) == "os" && (fn.Name() == "Getenv" || fn.Name() == "LookupEnv"):
			source = true
		}
		getpid = getpid || r&calls.Getpid != 0
		guards = guards || r&guard != 0
	}
	// The own PID written beside a create or a Stat: a PID file (PL008).
	return getpid && guards || source && (declaresPID(in) || returnsIntParse(f.pass.TypesInfo, in.Root()))
}

// returnsIntParse reports whether code under root returns an integer
// parse as it is (return strconv.Atoi(…)): what a function that reads a
// PID from a file under no PID's name does.
func returnsIntParse(info *types.Info, root inspector.Cursor) bool {
	if !root.Valid() {
		return false
	}
	for cur := range root.Preorder((*ast.ReturnStmt)(nil)) {
		ret := cur.Node().(*ast.ReturnStmt)
		if len(ret.Results) != 1 {
			continue
		}
		if call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr); ok &&
			calls.IsPkgFunc(calls.Callee(info, call), "strconv", "Atoi", "ParseInt", "ParseUint") {
			return true
		}
	}
	return false
}

// signalProgram reports whether an exec.Command call runs kill, pkill or
// taskkill.
func signalProgram(info *types.Info, call *ast.CallExpr) bool {
	for _, a := range call.Args[:min(2, len(call.Args))] {
		if tv, ok := info.Types[a]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
			switch shellcmd.Name(constant.StringVal(tv.Value)) {
			case "kill", "pkill", "taskkill":
				return true
			}
		}
	}
	return false
}

// declaresPID reports whether the package declares a function, a result
// or a struct field whose name speaks of a PID.
func declaresPID(in *inspector.Inspector) bool {
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil), (*ast.Field)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.FuncDecl:
			if calls.NamesPID(n.Name.Name) {
				return true
			}
		case *ast.Field:
			for _, name := range n.Names {
				if calls.NamesPID(name.Name) {
					return true
				}
			}
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

// orderCalleesFirst orders the units so that a function comes after the
// functions of the package it calls (recursion aside): a round then sees
// the summaries it needs, and the next only confirms them.
func (f *Flow) orderCalleesFirst() {
	seen := map[*unit]bool{}
	order := make([]*unit, 0, len(f.units))
	var visit func(u *unit)
	visit = func(u *unit) {
		if seen[u] {
			return
		}
		seen[u] = true
		u.each(func(ins ssa.Instruction) {
			if ci, ok := ins.(ssa.CallInstruction); ok {
				if _, obj, _ := calleeOf(ci.Common()); obj != nil {
					if v := f.unitOf[obj.Origin()]; v != nil {
						v.callers = append(v.callers, u)
						visit(v)
					}
				}
			}
		})
		order = append(order, u)
	}
	for _, u := range f.units {
		visit(u)
	}
	f.units = order
}

// run follows the package's units, round after round, until no summary
// and no package variable changes: the first round follows every unit,
// a later one those that call a unit whose summary changed (or all of
// them, when a package variable or field did).
func (f *Flow) run() {
	again := map[*unit]bool{}
	for _, u := range f.units {
		again[u] = true
	}
	for range maxRounds {
		f.globalsChanged, f.fieldsChanged = false, false
		next := map[*unit]bool{}
		for _, u := range f.units {
			if !again[u] {
				continue
			}
			before := ""
			if u.done != nil {
				before = u.done.key()
			}
			u.transfer()
			u.done = u.sum
			if u.sum.key() != before {
				for _, c := range u.callers {
					next[c] = true
				}
			}
		}
		if f.globalsChanged || f.fieldsChanged {
			for _, u := range f.units {
				next[u] = true
			}
		}
		if len(next) == 0 {
			return
		}
		again = next
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
