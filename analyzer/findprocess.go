package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/goos"
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
	calls: []callCheck{{matches: isFindProcess, check: (*site).findProcess}},
}

func isFindProcess(_ *runner, fn *types.Func) bool { return isPkgFunc(fn, "os", "FindProcess") }

// findProcess handles os.FindProcess whose error or result is the verdict:
// it never fails on Unix.
func (s *site) findProcess() {
	s.findProcessLeak()
	assign, ok := s.cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 {
		return
	}
	procUse := processUse(s.info(), s.cur, assign.Lhs[0])
	if procUse == processProbed {
		return // a real signal, kill or wait follows
	}
	errUse := useOf(s.info(), s.cur, 1)
	decides := errUse.kind >= useReturned || procUse == processNilCompared
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
	if blank(assign.Lhs[0]) && procUse == processUnused && errUse.kind != useText && !errUse.identity && !errUse.notExist {
		if check := s.safeprobeCall("Check", s.call.Args[0]); check != "" {
			f.fix = s.assignError(assign, check)
		}
	}
	s.r.add(s.fs, f)
}

// findProcessLeak reports, in -strict mode, os.FindProcess in a loop whose
// process is neither released, waited for, nor handed on: since Go 1.23
// each call holds a pidfd on Linux (a process handle on Windows) until
// Release or garbage collection, so a poller can run out of descriptors.
func (s *site) findProcessLeak() {
	if !inLoop(s.cur) {
		return
	}
	body := enclosingFunc(s.cur)
	_, parent := outerParens(s.cur)
	switch p := parent.Node().(type) {
	case *ast.AssignStmt:
		id, ok := p.Lhs[0].(*ast.Ident)
		if !ok {
			return // stored in a field or element: kept on purpose
		}
		if v := s.info().ObjectOf(id); v != nil && !blank(id) {
			for u := range usesIn(s.info(), body, v) {
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

// inLoop reports whether the code at cur runs in a for or range loop of
// its own function.
func inLoop(cur inspector.Cursor) bool {
	for c := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch c.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		default:
			return false
		}
	}
	return false
}
