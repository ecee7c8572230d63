package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
	"github.com/pidlint/pidlint/analyzer/internal/uses"
)

var findProcessRule = checker{
	rule:  "PL003",
	calls: []callCheck{{roles: calls.FindProcess, check: checkFindProcess}},
}

// checkFindProcess checks os.FindProcess whose error or result is the
// verdict: it never fails on Unix, and misleads on Windows.
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
	f := s.finding("%s", findProcessVerdict(s.os))
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

// findProcessVerdict says what FindProcess as the verdict gets wrong on
// the OSes in where: on Unix it never fails; on Windows it opens the process
// with PROCESS_QUERY_INFORMATION (os/exec_windows.go), which a live
// elevated or other user's process denies, and which succeeds as long as
// any handle keeps an exited process's object.
func findProcessVerdict(where goos.Set) string {
	const windows = "it fails with ACCESS_DENIED for a live elevated or other user's process (read as dead) " +
		"and succeeds for an exited process whose handle some process still holds (read as alive)"
	unix := where &^ goos.Windows
	switch {
	case !where.Has(goos.Windows):
		return fmt.Sprintf("os.FindProcess never fails on %s (where this code builds): every PID reads as alive; use safeprobe.Check or safeprobe.Alive", goos.Describe(unix))
	case unix == 0:
		return "os.FindProcess as a liveness test is wrong on windows (where this code builds): " + windows +
			"; use safeprobe.Check or safeprobe.Alive, which wait on the process handle and, on ACCESS_DENIED, ask its exit code or the process list"
	}
	return fmt.Sprintf("os.FindProcess never fails on %s (where this code builds): every PID reads as alive; on windows %s; use safeprobe.Check or safeprobe.Alive", goos.Describe(unix), windows)
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
