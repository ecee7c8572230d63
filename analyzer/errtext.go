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
// Process.Signal's os.ErrProcessDone. Checked from the Error call.

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
				f.everywhere = true
				s.r.add(s.fs, f)
				return
			}
		}
	}
}

// fromProbe reports whether the error is the result of a kill(pid, 0) or
// Signal(0) probe, or of a wrapper of one, which its rule reports.
func fromProbe(s *site) bool {
	sel, ok := ast.Unparen(s.Expr.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	def, ok := ast.Unparen(astq.LocalDefinition(s.info(), s.cur, id)).(*ast.CallExpr)
	if !ok {
		return false
	}
	k := s.r.cls.Of(def)
	return k.Role&(calls.Kill|calls.ProcessSignal) != 0 && k.Probe() || k.Role&calls.Wrapped != 0
}
