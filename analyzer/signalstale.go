package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
	"github.com/pidlint/pidlint/analyzer/internal/pidflow"
)

// PL007 signal-unverified-pid: a real signal sent to a PID read from
// storage with nothing that checks it still names the process that wrote
// it. The PID's flow is package pidflow's.

var signalStaleRule = checker{
	rule: "PL007",
	pkg:  checkSignalStale,
}

// checkSignalStale reports PL007 in the package.
func checkSignalStale(r *runner, rule string) {
	for _, s := range r.pidFlow().Signals() {
		reportStale(r, rule, s)
	}
}

func reportStale(r *runner, rule string, s pidflow.Signal) {
	fs := r.fileOf(s.Pos)
	if fs == nil {
		return
	}
	cur, ok := astq.At(r.in.Root(), s.Pos, s.End)
	if !ok {
		return
	}
	os := r.buildable(fs, goos.Guarded(r.pass.TypesInfo, cur, fs.os))
	if os == 0 {
		return
	}
	checked := s.Source.Checked() || s.Command == "taskkill" || s.FileArg // taskkill and pkill refuse what is not a PID
	where := os
	switch s.OS {
	case pidflow.WindowsOnly:
		where &= goos.Windows
	case pidflow.UnixOnly:
		where &= goos.Unix // kill(2), kill(1), pkill(1)
	}
	if where == 0 {
		return // the program is not there where this code builds
	}
	sig := s.SigText
	if s.SigPos.IsValid() {
		sig = fs.sourceRange(s.SigPos, s.SigEnd)
	}
	src := s.Source.Describe(r.pass.Fset)
	const safe = "verify it with safeprobe.Lookup and Identity.Probe, or hold a safeprobe lock and use safeprobe.SignalOwner"
	var msg string
	switch {
	case !checked && !s.Process:
		msg = fmt.Sprintf("%s sends %s to a PID %s that is never checked to be > 0: a file holding 0 signals the caller's own process group, -1 every process it may signal (on %s), and any other number may by now be an unrelated process; %s",
			s.What, sig, src, goos.Describe(where), safe)
	case !checked:
		msg = fmt.Sprintf("%s sends %s to a PID %s that is never checked to be > 0: a negative number signals a whole process group, and any other may by now be an unrelated process; %s",
			s.What, sig, src, safe)
	case s.Command == "" && s.OS == pidflow.UnixOnly && !s.Negated && s.Source.WideParse().IsValid() && !s.Source.Bounded():
		msg = fmt.Sprintf("%s sends %s to a PID %s and parsed with no upper bound: 4294967295 (any number from 2^31 up) passes the > 0 check and reaches kill(2) as a 32-bit pid_t, where 4294967295 is -1, every process the caller may signal (on %s); and any other number may by now be an unrelated process; parse it with safeprobe.ParsePID or check it with safeprobe.ValidatePID (both refuse anything outside 1..2147483647), then %s",
			s.What, sig, src, goos.Describe(where), safe)
	case s.ByName:
		msg = fmt.Sprintf("%s sends %s to a PID %s that is checked only by its process's name, executable or command line: a name is not an identity, and after PID reuse another instance of that program gets it (on %s); compare the start time: %s",
			s.What, sig, src, goos.Describe(where), safe)
	default:
		msg = fmt.Sprintf("%s sends %s to a PID %s without checking that it still names the process that wrote it: after a crash, a reboot or PID reuse it is an unrelated process (on %s); %s",
			s.What, sig, src, goos.Describe(where), safe)
	}
	f := &finding{rule: rule, pos: s.Pos, end: s.End, msg: msg, rawProbe: s.ByName}
	if !s.ByName {
		f.fix = signalOwnerFix(r, fs, cur, s)
	}
	r.add(fs, f)
}

// signalOwnerFix replaces the signal with safeprobe.SignalOwner(path, sig)
// when the PID was read, in the same function, from a file the package
// uses as a safeprobe lock, and the edit leaves code that builds.
func signalOwnerFix(r *runner, fs *fileState, cur inspector.Cursor, s pidflow.Signal) *fixPlan {
	src := s.Source
	if s.Via || s.Command != "" || src.Fn != s.Fn || !src.PathPos.IsValid() || !src.Lock {
		return nil
	}
	call, ok := cur.Node().(*ast.CallExpr)
	if !ok {
		return nil
	}
	pathCur, ok := astq.At(r.in.Root(), src.PathPos, src.PathEnd)
	if !ok {
		return nil
	}
	path := pathCur.Node().(ast.Expr)
	info := r.pass.TypesInfo
	decl, ok := enclosingDeclCursor(cur)
	if !ok || !inScopeAt(r.pass.Pkg, info, path, call.Pos()) || leavesUnused(r.pass.Pkg, info, decl, call) {
		return nil
	}
	sp := r.safeprobeName(fs, call.Pos())
	if sp == "" {
		return nil
	}
	pathText := fs.source(path)
	if !s.SigPos.IsValid() {
		if os := fs.pkgNameIn(info, "os"); os != "" {
			return (&site{r: r, fs: fs, Call: calls.Call{Expr: call}}).replace(call, fmt.Sprintf("%s.SignalOwner(%s, %s.Kill)", sp, pathText, os), call)
		}
		return nil
	}
	pid, ok := astq.At(r.in.Root(), s.PIDPos, s.PIDEnd)
	if !ok {
		return nil
	}
	// Keep the signal argument as written: only the call and the PID go.
	// (A node spanning them, for the import clean-up.)
	removed := &ast.BinaryExpr{X: call.Fun, OpPos: call.Lparen, Op: token.ADD, Y: pid.Node().(ast.Expr)}
	if usesDotImport(info, fs.file, removed) {
		return nil
	}
	return &fixPlan{pos: call.Pos(), end: s.SigPos, newText: fmt.Sprintf("%s.SignalOwner(%s, ", sp, pathText), removed: removed}
}

// enclosingDeclCursor returns the function declaration around cur.
func enclosingDeclCursor(cur inspector.Cursor) (inspector.Cursor, bool) {
	for c := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		return c, true
	}
	return inspector.Cursor{}, false
}

// inScopeAt reports whether every name in e denotes the same object at pos.
func inScopeAt(pkg *types.Package, info *types.Info, e ast.Expr, pos token.Pos) bool {
	ok := true
	scope := pkg.Scope().Innermost(pos)
	ast.Inspect(e, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || !ok {
			return ok
		}
		obj := info.Uses[id]
		if obj == nil {
			return true // a field or method name
		}
		if _, isField := obj.(*types.Var); isField && obj.(*types.Var).IsField() {
			return true
		}
		if scope == nil {
			ok = false
			return false
		}
		if _, found := scope.LookupParent(id.Name, pos); found != obj {
			ok = false
		}
		return ok
	})
	return ok
}

// leavesUnused reports whether removing call would leave a local variable
// of the function decl without a use, which would not compile.
func leavesUnused(pkg *types.Package, info *types.Info, decl inspector.Cursor, call *ast.CallExpr) bool {
	inCall := map[*types.Var]bool{}
	ast.Inspect(call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != pkg.Scope() {
				inCall[v] = true
			}
		}
		return true
	})
	for c := range decl.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		if id.Pos() >= call.Pos() && id.Pos() < call.End() {
			continue
		}
		if c.ParentEdgeKind() == edge.AssignStmt_Lhs {
			continue // assigned, not read
		}
		if v, ok := info.Uses[id].(*types.Var); ok && inCall[v] {
			delete(inCall, v)
		}
	}
	return len(inCall) > 0
}
