package pidflow

import (
	"cmp"
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
)

// This file turns summaries into facts for the packages that import this
// one, and other packages' facts into summaries.

// exportFacts exports the summary of each exported function that does
// something with PIDs, and marks the package as one with facts.
func exportFacts(f *Flow) {
	exported := false
	for _, u := range f.units {
		if u.obj == nil || !u.obj.Exported() || u.done == nil {
			continue
		}
		if fact := factOf(f, u.obj, u.done); fact != nil {
			f.pass.ExportObjectFact(u.obj, fact)
			exported = true
		}
	}
	if exported {
		f.pass.ExportPackageFact(new(facts.HasWrappers))
	}
}

// factOf returns the fact the summary of fn makes, or nil when it says
// nothing an importer could use. What leaves it is told only where the
// value's type may hold a PID (an integer, a process, a record with a
// PID field), and a parameter merely handed on only beside something
// else: MayExportFacts must foresee every fact from the source alone.
func factOf(f *Flow, fn *types.Func, s *summary) *facts.FuncFlow {
	fact := &facts.FuncFlow{Flags: uint16(s.flags &^ (fBlindProbe | fVerifies | fSignals | fStarts | fRemoves))}
	var handedOn []facts.Out
	outs := func(result, param int, t types.Type, pls []placed) {
		for _, pl := range pls {
			o, ok := outOf(f, result, param, pl)
			switch {
			case !ok:
			case o.Kind == facts.StoredPID && !saysPID(fn, t) && !returnsPIDVar(f, fn) && !(isInteger(t) && returnsIntParse(f.pass.TypesInfo, declOf(f, fn))):
			case o.Kind == facts.StoredPID && o.FromParam >= 0:
				handedOn = append(handedOn, o)
			default:
				fact.Out = append(fact.Out, o)
			}
		}
	}
	sig := fn.Signature()
	for j, pls := range s.results {
		if j < sig.Results().Len() {
			outs(j, -1, sig.Results().At(j).Type(), pls)
		}
	}
	for i, pls := range s.params {
		if t := paramType(sig, i); t != nil {
			outs(-1, i, t, pls)
		}
	}
	for _, ps := range s.signals {
		fact.Signals = append(fact.Signals, facts.Signal{Param: ps.param, Path: ps.path, SigParam: ps.sigParam,
			What: ps.site.what, SigText: cmp.Or(ps.sigText, f.sigText(ps.site)), Process: ps.site.process, OS: uint8(ps.site.os)})
	}
	for _, c := range s.checks {
		fact.Checks = append(fact.Checks, facts.Check{Param: c.param, Path: c.path, Checks: uint8(c.checks),
			Checked: c.checked, Bounded: c.bounded, Wide: c.wide.IsValid()})
	}
	for _, key := range s.locks {
		if i, err := strconv.Atoi(strings.TrimPrefix(key, paramKeyPrefix)); err == nil {
			fact.Locks = append(fact.Locks, i)
		}
	}
	if len(fact.Out) == 0 && len(fact.Signals) == 0 && len(fact.Checks) == 0 && len(fact.Locks) == 0 && fact.Flags == 0 {
		return nil
	}
	fact.Out = append(fact.Out, handedOn...)
	return fact
}

// paramType is the type of parameter i of sig, counting the receiver
// first, or nil.
func paramType(sig *types.Signature, i int) types.Type {
	if sig.Recv() != nil {
		if i == 0 {
			return sig.Recv().Type()
		}
		i--
	}
	if i < sig.Params().Len() {
		return sig.Params().At(i).Type()
	}
	return nil
}

// outOf returns the fact's Out for a label leaving a function; false for
// one an importer cannot use (a file key, a verified read).
func outOf(f *Flow, result, param int, pl placed) (facts.Out, bool) {
	l := pl.l
	k, ok := factKinds[l.kind]
	o := facts.Out{Result: result, Param: param, Path: pl.rel, Kind: k, FromParam: l.param, FromPath: l.path, Pol: int8(l.pol)}
	switch {
	case !ok:
		return o, false // a file's key, or a PID file's existence: this function's business
	case l.param >= 0:
	case l.src != nil:
		if verified, byName := l.src.Verified(); verified && !byName {
			return o, false
		}
		o.FromParam, o.FromPath = -1, ""
		o.Source = l.src.Describe(f.pass.Fset)
		o.Checked, o.Bounded, o.Wide = l.src.Checked(), l.src.Bounded(), l.src.WideParse().IsValid()
	default:
		o.FromParam = -1 // the own PID
	}
	return o, true
}

// factKinds are the label kinds facts carry, and labelKinds the way back.
var (
	factKinds  = map[kind]facts.OutKind{stored: facts.StoredPID, identity: facts.Identity, answer: facts.Answer, ownPID: facts.OwnPID}
	labelKinds = map[facts.OutKind]kind{facts.StoredPID: stored, facts.Identity: identity, facts.Answer: answer, facts.OwnPID: ownPID}
)

// summaryOf returns the summary another package's fact gives obj.
func summaryOf(fact *facts.FuncFlow, obj *types.Func) *summary {
	s := newSummary()
	s.flags = flags(fact.Flags)
	for _, o := range fact.Out {
		l := label{kind: labelKinds[o.Kind], param: o.FromParam, path: o.FromPath, pol: int(o.Pol)}
		if o.FromParam < 0 && l.kind != ownPID {
			l.src = &Source{Kind: Returned, Subject: qualifiedName(obj), Via: o.Source,
				checked: o.Checked, bounded: o.Bounded, wideElsewhere: o.Wide}
		}
		s.out(o.Result, o.Param, o.Path, l)
	}
	for _, sg := range fact.Signals {
		inner := &sinkSite{what: sg.What, sigText: sg.SigText, process: sg.Process, os: OSes(sg.OS), pidArg: -1, sigArg: -1}
		s.signal(paramSignal{param: sg.Param, path: sg.Path, sigParam: sg.SigParam, site: inner})
	}
	for _, c := range fact.Checks {
		pc := paramCheck{checks: check(c.Checks), checked: c.Checked, bounded: c.Bounded, wideElsewhere: c.Wide}
		s.check(c.Param, c.Path, pc)
	}
	for _, i := range fact.Locks {
		s.lock(paramKeyPrefix + strconv.Itoa(i))
	}
	return s
}

// saysPID reports whether a value of type t that fn hands out is said to
// hold a PID: a process, a record with a PID field, or an integer (or
// text) from a function whose name, package or results speak of a PID.
func saysPID(fn *types.Func, t types.Type) bool {
	if _, basic := t.Underlying().(*types.Basic); !basic && holdsRecord(t, 0) {
		return true
	}
	if !holdsRecord(t, 0) && !isString(t) {
		return false
	}
	if calls.NamesPID(fn.Name()) || fn.Pkg() != nil && calls.NamesPID(fn.Pkg().Name()) {
		return true
	}
	res := fn.Signature().Results()
	for i := range res.Len() {
		if calls.NamesPID(res.At(i).Name()) {
			return true
		}
	}
	return false
}

// returnsPIDVar reports whether fn returns, in one of its return
// statements, a variable whose name speaks of a PID (return pid, nil).
func returnsPIDVar(f *Flow, fn *types.Func) bool {
	if cur := declOf(f, fn); cur.Valid() {
		fd := cur.Node().(*ast.FuncDecl)
		found := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				for _, r := range n.Results {
					if id, ok := ast.Unparen(r).(*ast.Ident); ok && calls.NamesPID(id.Name) {
						found = true
					}
				}
			}
			return !found
		})
		return found
	}
	return false
}

// declOf returns the declaration of fn, a function of the package with a
// body; not Valid if there is none.
func declOf(f *Flow, fn *types.Func) inspector.Cursor {
	if f.decls == nil {
		f.decls = map[*types.Func]inspector.Cursor{}
		for cur := range f.in.Root().Preorder((*ast.FuncDecl)(nil)) {
			fd := cur.Node().(*ast.FuncDecl)
			if obj, ok := f.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && fd.Body != nil {
				f.decls[obj] = cur
			}
		}
	}
	return f.decls[fn]
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
