package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

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
	p := r.pidFlow()
	for _, d := range p.Funcs() {
		if p.Summary(d.Fn).Verifies {
			continue
		}
		for c := range d.Cur.Preorder((*ast.CallExpr)(nil)) {
			s := p.Sink(c.Node().(*ast.CallExpr))
			if s == nil {
				continue
			}
			o := p.Origin(d.Fn, s.PID)
			if s.FileArg {
				o = &pidflow.Origin{Source: "the PID file pkill -F reads", ReadIn: d.Fn, Path: s.PID}
			}
			if o != nil {
				reportStale(r, rule, d, c, s, o)
			}
		}
	}
}

func reportStale(r *runner, rule string, d pidflow.Func, cur inspector.Cursor, s *pidflow.Sink, o *pidflow.Origin) {
	p := r.pidFlow()
	if o.ReadIn != nil && o.ReadIn != d.Fn && p.Summary(o.ReadIn).Verifies {
		return
	}
	fs := r.fileOf(s.Call.Pos())
	if fs == nil {
		return
	}
	os := r.buildable(fs, goos.Guarded(r.pass.TypesInfo, cur, fs.os))
	if os == 0 {
		return
	}
	checked := p.Checked(d, s, o)
	where := os
	switch {
	case s.Command == "taskkill":
		where &= goos.Windows
		checked = true // taskkill refuses 0 and negative numbers
	case s.Command != "":
		where &= goos.Unix // kill(1), pkill(1)
		checked = checked || s.FileArg
	case !s.Process && !s.ViaFact:
		where &= goos.Unix // kill(2)
	}
	if where == 0 {
		return // the program is not there where this code builds
	}
	sig := "a kill"
	switch {
	case s.SigText != "":
		sig = s.SigText
	case s.Sig != nil:
		sig = fs.source(s.Sig)
	}
	const safe = "verify it with safeprobe.Lookup and Identity.Probe, or hold a safeprobe lock and use safeprobe.SignalOwner"
	var msg string
	switch {
	case !checked && !s.Process:
		msg = fmt.Sprintf("%s sends %s to a PID read from %s that is never checked to be > 0: a file holding 0 signals the caller's own process group, -1 every process it may signal (on %s), and any other number may by now be an unrelated process; %s",
			s.What, sig, o.Source, goos.Describe(where), safe)
	case !checked:
		msg = fmt.Sprintf("%s sends %s to a PID read from %s that is never checked to be > 0: a negative number signals a whole process group, and any other may by now be an unrelated process; %s",
			s.What, sig, o.Source, safe)
	case s.Command == "" && !s.Process && !s.ViaFact && !negated(s.PID) && p.WideParse(d, o) != nil:
		msg = fmt.Sprintf("%s sends %s to a PID read from %s and parsed with no upper bound: 4294967295 (any number from 2^31 up) passes the > 0 check and reaches kill(2) as a 32-bit pid_t, where 4294967295 is -1, every process the caller may signal (on %s); and any other number may by now be an unrelated process; parse it with safeprobe.ParsePID or check it with safeprobe.ValidatePID (both refuse anything outside 1..2147483647), then %s",
			s.What, sig, o.Source, goos.Describe(where), safe)
	default:
		msg = fmt.Sprintf("%s sends %s to a PID read from %s without checking that it still names the process that wrote it: after a crash, a reboot or PID reuse it is an unrelated process (on %s); %s",
			s.What, sig, o.Source, goos.Describe(where), safe)
	}
	f := &finding{rule: rule, pos: s.Call.Pos(), end: s.Call.End(), msg: msg}
	f.fix = signalOwnerFix(r, d, fs, s, o)
	r.add(fs, f)
}

// negated reports whether the PID is negated in place (kill(-pgid, sig)):
// its truncation to 32 bits is not -1.
func negated(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.SUB
}

// signalOwnerFix replaces the signal with safeprobe.SignalOwner(path, sig)
// when the PID was read, in the same function, from a file the package uses
// as a safeprobe lock, and the edit leaves code that builds.
func signalOwnerFix(r *runner, d pidflow.Func, fs *fileState, s *pidflow.Sink, o *pidflow.Origin) *fixPlan {
	if s.ViaFact || s.Command != "" || o.ReadIn != d.Fn || o.Path == nil {
		return nil
	}
	if !o.Inspect && !r.pidFlow().Locked(o.Path) {
		return nil
	}
	info := r.pass.TypesInfo
	if !inScopeAt(r.pass.Pkg, info, o.Path, s.Call.Pos()) || leavesUnused(r.pass.Pkg, info, d, s.Call) {
		return nil
	}
	sp := r.safeprobeName(fs, s.Call.Pos())
	if sp == "" {
		return nil
	}
	path := fs.source(o.Path)
	if s.Sig == nil {
		if os := fs.pkgNameIn(info, "os"); os != "" {
			return (&site{r: r, fs: fs, Call: calls.Call{Expr: s.Call}}).replace(s.Call, fmt.Sprintf("%s.SignalOwner(%s, %s.Kill)", sp, path, os), s.Call)
		}
		return nil
	}
	// Keep the signal argument as written: only the call and the PID go.
	// (A node spanning them, for the import clean-up.)
	removed := &ast.BinaryExpr{X: s.Call.Fun, OpPos: s.Call.Lparen, Op: token.ADD, Y: s.PID}
	if usesDotImport(info, fs.file, removed) {
		return nil
	}
	return &fixPlan{pos: s.Call.Pos(), end: s.Sig.Pos(), newText: fmt.Sprintf("%s.SignalOwner(%s, ", sp, path), removed: removed}
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
// of the function without a use, which would not compile.
func leavesUnused(pkg *types.Package, info *types.Info, d pidflow.Func, call *ast.CallExpr) bool {
	inCall := map[*types.Var]bool{}
	ast.Inspect(call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != pkg.Scope() {
				inCall[v] = true
			}
		}
		return true
	})
	for c := range d.Cur.Preorder((*ast.Ident)(nil)) {
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
