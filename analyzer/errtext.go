package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// err.Error() compared with the text of the errors that say a process is
// gone, instead of errors.Is: PL001 for kill(2)'s ESRCH, PL002 for
// Process.Signal's os.ErrProcessDone. Checked from the Error call.

// goneTexts maps the texts to the rule and the error to test instead.
var goneTexts = []struct{ text, rule, instead string }{
	{"process already finished", "PL002", "errors.Is(err, os.ErrProcessDone)"},
	{"no such process", "PL001", "errors.Is(err, syscall.ESRCH)"},
}

// isErrorMethod reports whether fn is the Error method of the error
// interface (err.Error() on a value of static type error).
func isErrorMethod(_ *runner, fn *types.Func) bool {
	if fn.Name() != "Error" || fn.Pkg() != nil {
		return false
	}
	recv := fn.Signature().Recv()
	return recv != nil && types.Identical(recv.Type(), types.Universe.Lookup("error").Type())
}

// errorText reports err.Error() compared with a gone process's text:
// "==", "!=", a switch case, or strings.Contains/HasPrefix/HasSuffix/EqualFold.
func (s *site) errorText() {
	if s.fromProbe() {
		return // the probe's own finding names the text comparison
	}
	_, parent := outerParens(s.cur)
	var others []ast.Expr
	switch p := parent.Node().(type) {
	case *ast.BinaryExpr:
		if p.Op == token.EQL || p.Op == token.NEQ {
			others = []ast.Expr{p.X, p.Y}
		}
	case *ast.SwitchStmt:
		for _, stmt := range p.Body.List {
			others = append(others, stmt.(*ast.CaseClause).List...)
		}
	case *ast.CallExpr:
		if isPkgFunc(callee(s.info(), p), "strings", "Contains", "HasPrefix", "HasSuffix", "EqualFold") {
			others = p.Args
		}
	}
	for _, e := range others {
		text, ok := stringConst(s.info(), e)
		if !ok {
			continue
		}
		for _, g := range goneTexts {
			if strings.Contains(strings.ToLower(text), g.text) {
				f := s.finding("err.Error() compared with %q: the text is not an API (a wrapped error does not match, another OS words it differently); use %s", text, g.instead)
				f.rule = g.rule
				f.everywhere = true
				s.r.add(s.fs, f)
				return
			}
		}
	}
}

// fromProbe reports whether the error is the result of a kill(pid, 0) or
// Signal(0) probe, or of a wrapper of one, which its rule reports.
func (s *site) fromProbe() bool {
	sel, ok := ast.Unparen(s.call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	def, ok := ast.Unparen(localDefinition(s.info(), s.cur, id)).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := callee(s.info(), def)
	switch {
	case fn == nil:
		return false
	case isKill(s.r, fn):
		return len(def.Args) == 2 && isZero(s.info(), def.Args[1])
	case isSignal(s.r, fn):
		return len(def.Args) == 1 && (isZero(s.info(), def.Args[0]) || isNilSignal(s.info(), def.Args[0]))
	}
	return s.r.wrapperOf(fn) != nil
}
