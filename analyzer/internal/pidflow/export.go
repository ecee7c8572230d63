package pidflow

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
)

func (t *taint) storedFact(fn *types.Func) *facts.StoredPID {
	return facts.Of(t.pass, t.stored, fn)
}

func (t *taint) signalsFact(fn *types.Func) *facts.SignalsPID {
	return facts.Of(t.pass, t.signals, fn)
}

// exportFacts finds whether the function returns a stored PID or signals
// its parameter, unverified.
func (t *taint) exportFacts(d Func) {
	if t.sum.of[d.Fn].Verifies {
		return
	}
	sig := d.Fn.Signature()
	if t.stored[d.Fn] == nil && returnsRecord(d.Fn) {
		for c := range d.Cur.Preorder((*ast.ReturnStmt)(nil)) {
			if fd, ok := astq.EnclosingDecl(c); !ok || fd != d.Cur.Node() {
				continue
			}
			ret := c.Node().(*ast.ReturnStmt)
			for i := range sig.Results().Len() {
				typ := sig.Results().At(i).Type()
				if !holdsRecord(typ) {
					continue
				}
				var o *Origin
				switch {
				case len(ret.Results) == sig.Results().Len():
					if holdsPID(typ) && !isProcessPtr(typ) && !calls.NamesPID(d.Fn.Name()) && !calls.NamesPID(sig.Results().At(i).Name()) && !calls.NamesPID(types.ExprString(ret.Results[i])) {
						continue // an integer that is not said to be a PID
					}
					o = t.origin(d.Fn, ret.Results[i])
				case len(ret.Results) == 1 && t.carries(ret.Results[0], i):
					o = t.origin(d.Fn, ret.Results[0]) // return strconv.Atoi(…)
				}
				if o != nil {
					t.stored[d.Fn] = &facts.StoredPID{Result: i, Checked: o.Checked || t.checkedIn(d.Cur, o), Source: o.Source}
				}
			}
		}
	}
	if t.signals[d.Fn] == nil {
		for c := range d.Cur.Preorder((*ast.CallExpr)(nil)) {
			s := sinkOf(t.cls, t.signalsFact, c.Node().(*ast.CallExpr))
			if s == nil || s.Command != "" {
				continue // commands are followed in their function only
			}
			pidExpr := s.PID
			if s.Process {
				if arg := FindProcessArg(t.info, c, s.Call); arg != nil {
					pidExpr = arg // p, _ := os.FindProcess(pid); p.Signal(sig)
				}
			}
			pid := paramOf(t.info, sig, pidExpr)
			if pid < 0 {
				continue
			}
			sigParam := -1
			if s.Sig != nil {
				if _, ok := astq.IntConst(t.info, s.Sig); !ok && !astq.IsPkgObj(t.info, s.Sig, "os", "Kill", "Interrupt") {
					if sigParam = paramOf(t.info, sig, s.Sig); sigParam < 0 {
						continue
					}
				}
			}
			t.signals[d.Fn] = &facts.SignalsPID{PIDParam: pid, SigParam: sigParam, Checked: s.Checked || t.comparesParam(d.Cur, sig.Params().At(pid))}
			break
		}
	}
}

// returnsRecord reports whether fn may return a stored PID: an integer
// (said to be a PID where it is returned), a struct with a PID field, an
// *os.Process.
func returnsRecord(fn *types.Func) bool {
	res := fn.Signature().Results()
	for i := range res.Len() {
		if holdsRecord(res.At(i).Type()) {
			return true
		}
	}
	return false
}

func holdsRecord(t types.Type) bool {
	return holdsPID(t) || hasPIDField(t)
}

// hasPIDField reports whether t is a struct, or a pointer to one, with an
// integer field whose name speaks of a PID.
func hasPIDField(t types.Type) bool {
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if calls.NamesPID(f.Name()) && holdsPID(f.Type()) {
			return true
		}
	}
	return false
}

// paramOf returns the index of the parameter e is (through conversions and
// a minus sign), or -1.
func paramOf(info *types.Info, sig *types.Signature, e ast.Expr) int {
	if u, ok := astq.Unconvert(info, e).(*ast.UnaryExpr); ok && u.Op == token.SUB {
		e = u.X // a process group
	}
	return astq.ParamIndex(info, sig, e)
}

// checkedIn reports whether the function at cur compares a value of
// origin o with 0 or 1 (pid > 0, pid <= 0, pid < 1).
func (t *taint) checkedIn(cur inspector.Cursor, o *Origin) bool {
	return comparesWithSmall(t.cls, cur, func(e ast.Expr) bool { return t.origin(nil, e) == o })
}

func (t *taint) comparesParam(cur inspector.Cursor, v *types.Var) bool {
	return comparesWithSmall(t.cls, cur, func(e ast.Expr) bool {
		id, ok := astq.Unconvert(t.info, e).(*ast.Ident)
		return ok && t.info.Uses[id] == v
	})
}

// comparesWithSmall reports whether the code at cur compares a value
// match accepts with 0 or 1, or has safeprobe.ValidatePID refuse it.
func comparesWithSmall(cls *calls.Classifier, cur inspector.Cursor, match func(ast.Expr) bool) bool {
	for c := range cur.Preorder((*ast.BinaryExpr)(nil), (*ast.CallExpr)(nil)) {
		switch b := c.Node().(type) {
		case *ast.BinaryExpr:
			switch b.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
			default:
				continue
			}
			for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				if v, ok := astq.IntConst(cls.Info, pair[1]); ok && v <= 1 && match(pair[0]) {
					return true
				}
			}
		case *ast.CallExpr:
			// safeprobe.ValidatePID(pid) refuses 0 and negatives.
			if calls.RolesOf(calls.Callee(cls.Info, b), cls.Safeprobe)&calls.SafeValidatePID != 0 && len(b.Args) == 1 && match(b.Args[0]) {
				return true
			}
		}
	}
	return false
}
