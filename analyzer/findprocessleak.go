package analyzer

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

// Since Go 1.23, os.FindProcess on Linux opens a pidfd (os/pidfd_linux.go);
// on Windows it has always opened a process handle (os/exec_windows.go).
// Either is closed by Release, or by the Process's cleanup when the
// garbage collector gets to it: a poller that finds a process on every
// round and drops it runs out of descriptors before a collection runs
// (hashicorp/go-plugin#378, hashicorp/nomad#27847).

// findProcessLeak reports os.FindProcess in a loop, or in a function
// called from a loop in the package, whose Process is neither released,
// waited for, nor handed on.
func findProcessLeak(s *site) {
	loop := ""
	if !astq.InLoop(s.cur) {
		call, ok := calledInLoop(s.r, s.cur)
		if !ok {
			return
		}
		loop = fmt.Sprintf(" (called in a loop at line %d)", s.fs.tf.Line(call.Pos()))
	}
	if !dropsProcess(s) {
		return
	}
	where := s.os & goos.Windows
	if goAtLeast(s.r.pass, s.fs.file, "go1.23") {
		where |= s.os & (goos.Of("linux") | goos.Of("android"))
	}
	if where == 0 {
		return // no descriptor is held: another OS, or Linux before Go 1.23
	}
	f := s.finding("os.FindProcess without Release%s: on %s (where this code builds) each call holds %s until Release or garbage collection, so a poller runs out of file descriptors; call Release on the Process when done with it",
		loop, goos.Describe(where), heldBy(where))
	s.r.add(s.fs, f)
}

// heldBy names what FindProcess holds on the OSes of where.
func heldBy(where goos.Set) string {
	switch {
	case !where.Has(goos.Windows):
		return "a pidfd"
	case where == goos.Windows:
		return "a process handle"
	}
	return "a pidfd (a process handle on windows)"
}

// dropsProcess reports whether the Process the FindProcess call at s
// returns is dropped: discarded, or used in its function without Release
// or Wait and without being stored, passed on or returned.
func dropsProcess(s *site) bool {
	_, parent := astq.OuterParens(s.cur)
	switch p := parent.Node().(type) {
	case *ast.AssignStmt:
		id, ok := p.Lhs[0].(*ast.Ident)
		if !ok {
			return false // stored in a field or element: kept on purpose
		}
		v := s.info().ObjectOf(id)
		if v == nil || astq.Blank(id) {
			return true
		}
		for u := range astq.UsesIn(s.info(), astq.EnclosingFunc(s.cur), v) {
			sel, isSel := u.Parent().Node().(*ast.SelectorExpr)
			if !isSel || sel.Sel.Name == "Release" || sel.Sel.Name == "Wait" {
				return false // released, waited for, or handed on
			}
		}
		return true
	case *ast.ExprStmt:
		return true
	}
	return false // passed on or returned
}

// calledInLoop returns a call, in a loop of the package, of the function
// declared around cur.
func calledInLoop(r *runner, cur inspector.Cursor) (*ast.CallExpr, bool) {
	decl, ok := astq.EnclosingDecl(cur)
	if !ok {
		return nil, false // in a function literal: who calls it is not seen
	}
	fn, ok := r.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return nil, false
	}
	for c := range r.in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		if calls.Callee(r.pass.TypesInfo, call) == fn && astq.InLoop(c) {
			return call, true
		}
	}
	return nil, false
}
