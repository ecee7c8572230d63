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
	Summary: "`os.FindProcess`'s error or result as the verdict in code that builds for a non-Windows OS; FindProcess in a poll loop without `Release`",
	Text: `os.FindProcess never fails on Unix: it returns a *Process for any PID, so
"err == nil" or "p != nil" says every PID is alive. (On Windows it does fail
for a PID that does not exist, but succeeds for an exited process whose
handle is still open and for pid+1..pid+3.) The rule reports a FindProcess
whose error or result is the verdict in code that builds for a non-Windows
OS, unless the process it returns is then signalled, killed or waited for.
It also reports os.FindProcess in a loop, or in a function called from a
loop in the package, whose Process is neither released, waited for, stored
nor handed on: on Windows FindProcess opens a process handle, and since Go
1.23 on Linux (5.3 and later) it opens a pidfd; either stays open until
Release or until the garbage collector runs the Process's cleanup, so a
poller runs out of file descriptors (hashicorp/go-plugin#378,
hashicorp/nomad#27847). The Linux half is reported where the file's go
line (its //go:build goN or its module's) is 1.23 or later.`,
	Bad: `func exists(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}`,
	Good: `func exists(pid int) bool {
	return safeprobe.Alive(pid)
}`,
	OS:    "all but windows; the loop leak: linux (go line 1.23+), windows",
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
