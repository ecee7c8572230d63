package analyzer

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// err.Error() compared with the text of the errors that say a process is
// gone, instead of errors.Is: PL001 for kill(2)'s ESRCH, PL002 for
// Process.Signal's os.ErrProcessDone (and PL002 for ESRCH's text after
// Process.Signal, which never returns ESRCH). Checked from the Error call.

// goneTexts maps the texts to the rule and the error to test instead.
var goneTexts = []struct{ text, rule, instead string }{
	{calls.TextProcessDone, "PL002", "errors.Is(err, os.ErrProcessDone)"},
	{calls.TextESRCH, "PL001", "errors.Is(err, syscall.ESRCH)"},
}

// checkErrorText reports err.Error() compared with a gone process's text:
// "==", "!=", a switch case, or strings.Contains/HasPrefix/HasSuffix/EqualFold.
func checkErrorText(s *site) {
	if fromProbe(s) {
		return // the probe's own finding names the text comparison
	}
	_, parent := astq.OuterParens(s.cur)
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
		if calls.IsPkgFunc(calls.Callee(s.info(), p), "strings", "Contains", "HasPrefix", "HasSuffix", "EqualFold") {
			others = p.Args
		}
	}
	for _, e := range others {
		text, ok := astq.StringConst(s.info(), e)
		if !ok {
			continue
		}
		for _, g := range goneTexts {
			if strings.Contains(strings.ToLower(text), g.text) {
				f := s.finding("err.Error() compared with %q: the text is not an API (a wrapped error does not match, another OS words it differently); use %s", text, g.instead)
				f.rule = g.rule
				if g.rule == "PL001" && fromProcess(s) {
					// os turns ESRCH into os.ErrProcessDone.
					f = s.finding("err.Error() compared with %q: Process.Signal and Kill never return ESRCH, they return os.ErrProcessDone for a process that is gone, so this never matches; use errors.Is(err, os.ErrProcessDone)", text)
					f.rule = "PL002"
				}
				f.everywhere = true
				s.r.add(s.fs, f)
				return
			}
		}
	}
}

// fromProcess reports whether the error is the result of Process.Signal
// or Process.Kill.
func fromProcess(s *site) bool {
	def := errDefinition(s)
	return def != nil && s.r.cls.Of(def).Role&(calls.ProcessSignal|calls.ProcessKill) != 0
}

// errDefinition is the call whose result the error variable, the
// receiver of err.Error(), holds, or nil.
func errDefinition(s *site) *ast.CallExpr {
	sel, ok := ast.Unparen(s.Expr.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	def, _ := ast.Unparen(astq.LocalDefinition(s.info(), s.cur, id)).(*ast.CallExpr)
	return def
}

// fromProbe reports whether the error is the result of a kill(pid, 0) or
// Signal(0) probe, or of a wrapper of one, which its rule reports.
func fromProbe(s *site) bool {
	def := errDefinition(s)
	if def == nil {
		return false
	}
	k := s.r.cls.Of(def)
	return k.Role&(calls.Kill|calls.ProcessSignal) != 0 && k.Probe() || k.Role&calls.Wrapped != 0
}
