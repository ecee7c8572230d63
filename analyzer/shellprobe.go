package analyzer

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
	"github.com/pidlint/pidlint/analyzer/internal/uses"
	"github.com/pidlint/pidlint/internal/shellcmd"
)

var shellProbeRule = checker{
	rule:  "PL005",
	calls: []callCheck{{roles: calls.Command, check: checkShell}},
}

// checkShell checks exec.Command[Context] running a probe command.
func checkShell(s *site) {
	args := s.Expr.Args
	if s.Fn.Name() == "CommandContext" {
		if len(args) == 0 {
			return
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	name, ok := astq.StringConst(s.info(), args[0])
	if !ok {
		return
	}
	var rest []string
	for _, a := range args[1:] {
		rest = append(rest, argText(s.info(), a))
	}
	probe := shellcmd.Classify(name, rest)
	if probe == shellcmd.NoProbe {
		return
	}
	run, ok := commandRun(s)
	if !ok {
		return
	}
	if probe.ByExitStatus() && uses.Of(s.info(), run, errIndexOfRun(run)).Kind < uses.Returned {
		return // the exit status decides nothing
	}
	msg := "exec of " + probe.What() + " as a liveness test " + probe.Flaw() + " and costs a process per probe"
	only := goos.Unix // where the command exists
	if probe.Windows() {
		only = goos.Windows
	}
	if missing := s.os &^ only; missing != 0 {
		msg += "; the command is not there on " + goos.Describe(missing) + " (where this code builds), so every process reads as dead"
	}
	s.r.add(s.fs, s.finding("%s; use safeprobe.Alive", msg))
}

// argText is the text of a command argument: a constant, or the constant
// parts of a concatenation with N for the rest ("kill -0 "+pid reads
// "kill -0 N"); "" when nothing of it is constant.
func argText(info *types.Info, e ast.Expr) string {
	if v, ok := astq.StringConst(info, e); ok {
		return v
	}
	parts := astq.FlattenConcat(e)
	if len(parts) == 1 {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if v, ok := astq.StringConst(info, p); ok {
			b.WriteString(v)
		} else {
			b.WriteString("N")
		}
	}
	return b.String()
}

// commandRun finds where the command built at the site is run: a chained
// .Run()/.Output()/… or one on the variable it is assigned to.
func commandRun(s *site) (inspector.Cursor, bool) {
	isRun := func(c inspector.Cursor) bool {
		sel, ok := c.Node().(*ast.SelectorExpr)
		if !ok {
			return false
		}
		switch sel.Sel.Name {
		case "Run", "Output", "CombinedOutput", "Start":
			_, isCall := c.Parent().Node().(*ast.CallExpr)
			return isCall
		}
		return false
	}
	if parent := s.cur.Parent(); isRun(parent) {
		return parent.Parent(), true
	}
	assign, ok := s.cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 1 {
		return inspector.Cursor{}, false
	}
	id, ok := assign.Lhs[0].(*ast.Ident)
	if !ok {
		return inspector.Cursor{}, false
	}
	for use := range astq.UsesIn(s.info(), astq.EnclosingFunc(s.cur), s.info().ObjectOf(id)) {
		if isRun(use.Parent()) {
			return use.Parent().Parent(), true
		}
	}
	return inspector.Cursor{}, false
}

func errIndexOfRun(c inspector.Cursor) int {
	sel := ast.Unparen(c.Node().(*ast.CallExpr).Fun).(*ast.SelectorExpr)
	if sel.Sel.Name == "Run" || sel.Sel.Name == "Start" {
		return 0
	}
	return 1
}
