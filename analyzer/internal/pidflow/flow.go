// Package pidflow follows PIDs through one package: where a PID came from
// (a file, a lock file, another package's function), where it goes (a
// real signal), and what each function does to processes and files. The
// rules PL007 and PL008 ask it; facts carry its findings to importers.
//
// Today it is a flow-insensitive taint over the package's variables,
// struct fields and functions, written on the syntax tree. The rules see
// only this file's API (Flow, Func, Summary, Origin, Sink) and the
// facts, so another implementation of the flow replaces this package's
// other files alone.
package pidflow

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
)

// Flow is what one package does with PIDs.
type Flow struct {
	pass  *analysis.Pass
	cls   *calls.Classifier
	funcs *funcs
	sum   *summaries
	taint *taint
}

// A Func is a function of the package that has a body.
type Func struct {
	Fn  *types.Func
	Cur inspector.Cursor // its declaration
}

// funcs are the package's functions, in source order.
type funcs struct {
	list  []Func
	index map[*types.Func]int
}

// of returns the declaration of fn in this package.
func (fs *funcs) of(fn *types.Func) (Func, bool) {
	i, ok := fs.index[fn]
	if !ok {
		return Func{}, false
	}
	return fs.list[i], true
}

// New follows the package's PIDs and exports the facts it finds about its
// exported functions. It follows them only where one can reach a signal
// or a PID file of the package's own, or leave through an exported
// function's result; elsewhere Funcs is empty.
func New(pass *analysis.Pass, in *inspector.Inspector, cls *calls.Classifier) *Flow {
	f := &Flow{pass: pass, cls: cls, funcs: &funcs{index: map[*types.Func]int{}}}
	f.taint = newTaint(pass, cls, f.funcs)
	var source, sink, own bool
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if fn := calls.Callee(pass.TypesInfo, call); fn != nil {
			s, k, o := f.interesting(fn)
			if !k && calls.RolesOf(fn, cls.Safeprobe)&calls.Command != 0 {
				k = f.Sink(call) != nil // exec.Command("kill", …)
			}
			source, sink, own = source || s, sink || k, own || o
		}
	}
	exportsRecord := false
	for cur := range in.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && fd.Body != nil {
			f.funcs.index[fn] = len(f.funcs.list)
			f.funcs.list = append(f.funcs.list, Func{fn, cur})
			exportsRecord = exportsRecord || fn.Exported() && returnsRecord(fn)
		}
	}
	if !(sink || own || source && exportsRecord) {
		f.funcs.list = nil
		f.sum = newSummaries(pass, cls)
		return f
	}
	f.sum = summarize(pass, cls, f.funcs.list)
	f.taint.sum = f.sum
	f.taint.run()
	return f
}

// interesting says whether a call of fn may read a PID from storage
// (source), signal one (sink), or ask for the own PID (own).
func (f *Flow) interesting(fn *types.Func) (source, sink, own bool) {
	foreign := fn.Pkg() != f.pass.Pkg
	r := calls.RolesOf(fn, f.cls.Safeprobe)
	source = r&(calls.ReadFile|calls.Safeprobe) != 0 || foreign && f.taint.storedFact(fn) != nil
	sink = r&(calls.Kill|calls.ProcessSignal|calls.ProcessKill) != 0 || foreign && f.taint.signalsFact(fn) != nil
	own = r&calls.Getpid != 0
	return source, sink, own
}

// Funcs are the package's functions with bodies, when it has PIDs to
// follow.
func (f *Flow) Funcs() []Func { return f.funcs.list }

// FuncOf returns the declaration of fn, a function of this package.
func (f *Flow) FuncOf(fn *types.Func) (Func, bool) { return f.funcs.of(fn) }

// Summary says what fn, a function of this package, and the package's
// functions it calls do to processes and files.
func (f *Flow) Summary(fn *types.Func) Summary {
	if s := f.sum.of[fn.Origin()]; s != nil {
		return *s
	}
	return Summary{}
}

// WritesOwnPID reports whether a function of the package writes its own
// PID somewhere: whether it may keep a PID file.
func (f *Flow) WritesOwnPID() bool {
	for _, s := range f.sum.of {
		if s.OwnPID {
			return true
		}
	}
	return false
}

// Origin returns where the value of e, in the function in, was read
// from, or nil.
func (f *Flow) Origin(in *types.Func, e ast.Expr) *Origin { return f.taint.origin(in, e) }

// Checked reports whether a PID of origin o, signalled in the function
// in, is compared with 0 or 1 on its way: where it is read, where it is
// signalled, or inside the callee that signals it.
func (f *Flow) Checked(in Func, s *Sink, o *Origin) bool {
	if o.Checked || s.Checked || f.taint.checkedIn(in.Cur, o) {
		return true
	}
	if o.ReadIn != nil && o.ReadIn != in.Fn {
		if rd, ok := f.funcs.of(o.ReadIn); ok {
			return f.taint.checkedIn(rd.Cur, o)
		}
	}
	return false
}

// WideParse returns the strconv call that parsed a PID of origin o,
// signalled in the function in, as a number wider than kill(2)'s 32-bit
// pid_t (strconv.Atoi, ParseInt(s, 10, 64)), when no upper bound is
// checked where it is signalled or read; else nil.
func (f *Flow) WideParse(in Func, o *Origin) *ast.CallExpr { return wideParseOf(f, in, o) }

// Locked reports whether the package passes the file path e to
// safeprobe's lock API: whether the file is a safeprobe lock.
func (f *Flow) Locked(path ast.Expr) bool {
	k := PathKey(f.pass.TypesInfo, path)
	return k != nil && f.sum.locked[k]
}

// signalsFact returns the facts.SignalsPID of fn, found or imported.
func (f *Flow) signalsFact(fn *types.Func) *facts.SignalsPID { return f.taint.signalsFact(fn) }
