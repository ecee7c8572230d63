package analyzer

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

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
OS, unless the process it returns is then signalled, killed or waited for,
or the code goes on to probe the PID for real (kill or Signal with 0,
safeprobe, or a function of the package, given the PID, that does).
The fix asks safeprobe about the PID: "_, err := os.FindProcess(pid)" and
"return err == nil" on the next line (or "p, _ := …" and "p != nil")
become "return safeprobe.Alive(pid)"; an error used otherwise comes from
safeprobe.Check(pid).`,
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
	if procUse == uses.ProcessProbed || probedAfter(s) {
		return // a real signal, kill, wait or probe follows
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
	// "_, err := os.FindProcess(pid); return err == nil" becomes
	// "return safeprobe.Alive(pid)", and "p, _ := …; return p != nil" too.
	for i, lhs := range assign.Lhs {
		if other := assign.Lhs[1-i]; f.fix == nil && astq.Blank(other) {
			f.fix = s.aliveForOnlyUse(assign, lhs, i == 0)
		}
	}
	// "_, err := os.FindProcess(pid)" becomes "err := safeprobe.Check(pid)".
	if f.fix == nil && astq.Blank(assign.Lhs[0]) && procUse == uses.ProcessUnused && errUse.Kind != uses.Text && !errUse.Identity && !errUse.NotExist {
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

// aliveForOnlyUse is the fix for a FindProcess whose one result lhs is
// used once, compared with nil in the statement right after it: the
// comparison becomes safeprobe.Alive(pid) (negated as the comparison
// reads), and the FindProcess goes. isProc: lhs is the *os.Process, which
// is non-nil for "alive"; else the error, nil for "alive".
func (s *site) aliveForOnlyUse(assign *ast.AssignStmt, lhs ast.Expr, isProc bool) *fixPlan {
	info := s.info()
	id, ok := lhs.(*ast.Ident)
	if !ok || assign.Tok != token.DEFINE || !s.fs.ownLines(assign) {
		return nil
	}
	pid, ok := ast.Unparen(s.Expr.Args[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	stmt := s.cur.Parent()
	if stmt.Node() != assign || stmt.ParentEdgeKind() != edge.BlockStmt_List {
		return nil
	}
	next, ok := stmt.NextSibling()
	if !ok {
		return nil
	}
	var use inspector.Cursor
	for u := range astq.UsesIn(info, astq.EnclosingFunc(s.cur), info.Defs[id]) {
		if use.Valid() {
			return nil // used more than once
		}
		use = u
	}
	if !use.Valid() || enclosingStmt(use) != next {
		return nil
	}
	cmp, ok := use.Parent().Node().(*ast.BinaryExpr)
	if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) || !astq.IsNil(info, cmp.X) && !astq.IsNil(info, cmp.Y) {
		return nil
	}
	alive := s.safeprobeCall("Alive", pid)
	if alive == "" {
		return nil
	}
	if (cmp.Op == token.NEQ) != isProc { // "err != nil", "p == nil"
		alive = "!" + alive
	}
	fix := s.replace(cmp, alive, cmp)
	if fix != nil {
		fix.dead = []ast.Node{assign}
	}
	return fix
}
