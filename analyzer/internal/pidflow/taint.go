package pidflow

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
)

// taint marks the package's variables, struct fields and functions whose
// values were read from storage: flow-insensitive, to a fixed point.
type taint struct {
	pass   *analysis.Pass
	info   *types.Info
	cls    *calls.Classifier
	funcs  *funcs
	sum    *summaries
	vars   map[*types.Var]*Origin
	fields map[*types.Var]*Origin
	mixed  map[*types.Var]bool // fields also given values not from storage
	// The facts found for the package's functions.
	stored  map[*types.Func]*facts.StoredPID
	signals map[*types.Func]*facts.SignalsPID
}

func newTaint(pass *analysis.Pass, cls *calls.Classifier, fs *funcs) *taint {
	return &taint{pass: pass, info: pass.TypesInfo, cls: cls, funcs: fs,
		vars: map[*types.Var]*Origin{}, fields: map[*types.Var]*Origin{}, mixed: map[*types.Var]bool{},
		stored: map[*types.Func]*facts.StoredPID{}, signals: map[*types.Func]*facts.SignalsPID{}}
}

// run taints to a fixed point, then exports the facts of the exported
// functions (only they are called from other packages).
func (t *taint) run() {
	// A round adds variables, fields and facts; a few rounds cover
	// helpers of helpers.
	for range 6 {
		if !t.round() {
			break
		}
	}
	exported := false
	for fn, f := range t.stored {
		if fn.Exported() {
			t.pass.ExportObjectFact(fn, f)
			exported = true
		}
	}
	for fn, f := range t.signals {
		if fn.Exported() {
			t.pass.ExportObjectFact(fn, f)
			exported = true
		}
	}
	if exported {
		t.pass.ExportPackageFact(new(facts.HasWrappers))
	}
}

// round runs the taint over every function once, and reports whether it
// learnt anything.
func (t *taint) round() bool {
	before := len(t.vars) + len(t.fields) + len(t.stored) + len(t.signals)
	// Whether a field also holds other values is decided anew each round,
	// from what is known to come from storage by then.
	clear(t.mixed)
	for _, d := range t.funcs.list {
		t.taintFunc(d)
	}
	for _, d := range t.funcs.list {
		t.exportFacts(d)
	}
	return len(t.vars)+len(t.fields)+len(t.stored)+len(t.signals) != before
}

func (t *taint) taintFunc(d Func) {
	for c := range d.Cur.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.CallExpr)(nil), (*ast.CompositeLit)(nil), (*ast.RangeStmt)(nil)) {
		switch n := c.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					t.assign(n.Lhs[i], t.origin(d.Fn, n.Rhs[i]), n.Rhs[i])
				}
			} else if len(n.Rhs) == 1 {
				o := t.origin(d.Fn, n.Rhs[0])
				for i, lhs := range n.Lhs {
					if o != nil && t.carries(n.Rhs[0], i) {
						t.assign(lhs, o, nil)
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) == len(n.Names) {
				for i := range n.Names {
					t.define(n.Names[i], t.origin(d.Fn, n.Values[i]))
				}
			} else if len(n.Values) == 1 {
				if o := t.origin(d.Fn, n.Values[0]); o != nil {
					for i, name := range n.Names {
						if t.carries(n.Values[0], i) {
							t.define(name, o)
						}
					}
				}
			}
		case *ast.RangeStmt:
			// for _, line := range strings.Split(string(data), "\n")
			if o := t.origin(d.Fn, n.X); o != nil && n.Value != nil {
				t.assign(n.Value, o, nil)
			}
		case *ast.CallExpr:
			t.fill(d.Fn, n)
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := t.info.Uses[id].(*types.Var); ok && f.IsField() {
							t.setField(f, t.origin(d.Fn, kv.Value), kv.Value)
						}
					}
				}
			}
		}
	}
}

// fill taints the variables a decoding call fills: json.Unmarshal(data,
// &v), dec.Decode(&v), fmt.Fscan(f, &pid), fmt.Sscanf(s, "%d", &pid).
func (t *taint) fill(in *types.Func, call *ast.CallExpr) {
	fn := calls.Callee(t.info, call)
	if fn == nil {
		return
	}
	var o *Origin
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
		o = t.origin(in, sel.X)
	}
	if o == nil && fn.Pkg() != nil && decodePackages[fn.Pkg().Path()] {
		for _, a := range call.Args {
			if _, addr := ast.Unparen(a).(*ast.UnaryExpr); !addr {
				if o = t.origin(in, a); o != nil {
					break
				}
			}
		}
	}
	if o == nil {
		return
	}
	for _, a := range call.Args {
		if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
			t.assign(u.X, o, nil)
		} else if _, ptr := t.info.TypeOf(a).(*types.Pointer); ptr && t.origin(in, a) == nil {
			t.assign(a, o, nil) // json.Unmarshal(data, rec) with rec := new(record)
		}
	}
}

func (t *taint) define(id *ast.Ident, o *Origin) {
	if v, ok := t.info.Defs[id].(*types.Var); ok && o != nil && t.vars[v] == nil {
		t.vars[v] = o
	}
}

// assign records lhs = a value of origin o (nil: not from storage). rhs is
// the value when it is known, to tell a zero reset from a live PID.
func (t *taint) assign(lhs ast.Expr, o *Origin, rhs ast.Expr) {
	switch l := ast.Unparen(lhs).(type) {
	case *ast.Ident:
		if v, ok := t.info.ObjectOf(l).(*types.Var); ok && o != nil && t.vars[v] == nil {
			t.vars[v] = o
		}
	case *ast.SelectorExpr:
		if f, ok := t.info.Uses[l.Sel].(*types.Var); ok && f.IsField() {
			t.setField(f, o, rhs)
		}
	}
}

// setField records a value given to a field. A field is a stored PID only
// if every value it is given (but zero) is one.
func (t *taint) setField(f *types.Var, o *Origin, rhs ast.Expr) {
	if !holdsPID(f.Type()) {
		return
	}
	switch {
	case o != nil:
		if t.fields[f] == nil {
			t.fields[f] = o
		}
	case rhs != nil && (astq.IsZero(t.info, rhs) || astq.IsNil(t.info, rhs)):
	default:
		t.mixed[f] = true
	}
}

// holdsPID reports whether a value of type t can be a PID or a process.
func holdsPID(t types.Type) bool {
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Info()&types.IsInteger != 0
	}
	return isProcessPtr(t)
}

func isProcessPtr(t types.Type) bool {
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := ptr.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Process" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "os"
}
