package analyzer

import (
	"go/ast"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
	"github.com/pidlint/pidlint/analyzer/internal/uses"
)

var findProcessRule = Rule{
	ID:      "PL003",
	Name:    "findprocess-liveness",
	Title:   "os.FindProcess used as a liveness test",
	Summary: "`os.FindProcess`'s error or result as the verdict in code that builds for a non-Windows OS",
	Text: `os.FindProcess never fails on Unix: it returns a *Process for any PID, so
"err == nil" or "p != nil" says every PID is alive. (On Windows it does fail
for a PID that does not exist, but succeeds for an exited process whose
handle is still open and for pid+1..pid+3.) The rule reports a FindProcess
whose error or result is the verdict in code that builds for a non-Windows
OS, unless the process it returns is then signalled, killed or waited for.`,
	Bad: `func exists(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}`,
	Good: `func exists(pid int) bool {
	return safeprobe.Alive(pid)
}`,
	OS:    "all but windows",
	Fix:   true,
	calls: []callCheck{{roles: calls.FindProcess, check: checkFindProcess}},
}

// checkFindProcess checks os.FindProcess whose error or result is the
// verdict: it never fails on Unix.
func checkFindProcess(s *site) {
	findProcessLeak(s)
	assign, ok := s.cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 {
		return
	}
	procUse := uses.Process(s.info(), s.cur, assign.Lhs[0])
	if procUse == uses.ProcessProbed {
		return // a real signal, kill or wait follows
	}
	errUse := uses.Of(s.info(), s.cur, 1)
	decides := errUse.Kind >= uses.Returned || procUse == uses.ProcessNilCompared
	if !decides {
		return
	}
	unix := s.os &^ goos.Windows
	var f *finding
	if unix == 0 {
		f = s.rawProbe("os.FindProcess (on windows it succeeds for an exited process whose handle is open, and for pid+1..pid+3)")
	} else {
		f = s.finding("os.FindProcess never fails on %s (where this code builds): every PID reads as alive; use safeprobe.Check or safeprobe.Alive", goos.Describe(unix))
	}
	// "_, err := os.FindProcess(pid)" becomes "err := safeprobe.Check(pid)".
	if astq.Blank(assign.Lhs[0]) && procUse == uses.ProcessUnused && errUse.Kind != uses.Text && !errUse.Identity && !errUse.NotExist {
		if check := s.safeprobeCall("Check", s.Expr.Args[0]); check != "" {
			f.fix = s.assignError(assign, check)
		}
	}
	s.r.add(s.fs, f)
}

// findProcessLeak reports, in -strict mode, os.FindProcess in a loop whose
// process is neither released, waited for, nor handed on: since Go 1.23
// each call holds a pidfd on Linux (a process handle on Windows) until
// Release or garbage collection, so a poller can run out of descriptors.
func findProcessLeak(s *site) {
	if !astq.InLoop(s.cur) {
		return
	}
	body := astq.EnclosingFunc(s.cur)
	_, parent := astq.OuterParens(s.cur)
	switch p := parent.Node().(type) {
	case *ast.AssignStmt:
		id, ok := p.Lhs[0].(*ast.Ident)
		if !ok {
			return // stored in a field or element: kept on purpose
		}
		if v := s.info().ObjectOf(id); v != nil && !astq.Blank(id) {
			for u := range astq.UsesIn(s.info(), body, v) {
				sel, isSel := u.Parent().Node().(*ast.SelectorExpr)
				if !isSel || sel.Sel.Name == "Release" || sel.Sel.Name == "Wait" {
					return // released, waited for, or handed on
				}
			}
		}
	case *ast.ExprStmt:
	default:
		return // passed on or returned
	}
	where := s.os & (goos.Of("linux") | goos.Of("android") | goos.Windows)
	if where == 0 {
		return // no descriptor is held elsewhere
	}
	f := s.finding("os.FindProcess in a loop without Release: each call holds a pidfd or process handle on %s (where this code builds) until Release or garbage collection, so a poller can run out of file descriptors (strict mode)", goos.Describe(where))
	f.rawProbe = true
	s.r.add(s.fs, f)
}
