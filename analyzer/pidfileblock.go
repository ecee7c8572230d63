package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/pidflow"
	"github.com/pidlint/pidlint/analyzer/internal/uses"
)

// PL008 pidfile-stale-block: a PID file used as the single-instance guard
// without a kernel lock, so that a file left by a crash blocks every start.

var pidfileBlockRule = checker{
	rule: "PL008",
	pkg:  checkPidfileBlock,
}

// pidfileGuards checks one package's PID-file guards.
type pidfileGuards struct {
	r       *runner
	flow    *pidflow.Flow
	info    *types.Info
	rule    string
	probing map[*types.Func]bool // pidflow.Flow.BlindProbe's memo
}

const blockAdvice = "; use safeprobe.TryAcquire, whose kernel lock dies with its holder"

// staysDown is what a supervisor does with a start that always fails.
const staysDown = "the service stays down (systemd's Restart= gives up after StartLimitBurst failed starts and leaves the unit failed; launchd's KeepAlive respawns it in a throttled loop)"

// checkPidfileBlock reports PL008 in the package.
func checkPidfileBlock(r *runner, rule string) {
	flow := r.pidFlow()
	if !flow.WritesOwnPID() {
		return // no PID file of its own to guard with
	}
	g := &pidfileGuards{r: r, flow: flow, info: r.pass.TypesInfo, rule: rule, probing: map[*types.Func]bool{}}
	var handled []ast.Node // functions whose O_EXCL create is reported: their probes are part of it
	for _, d := range flow.Funcs() {
		if flow.Summary(d.Fn).Locks {
			continue
		}
		for c := range d.Cur.Preorder((*ast.CallExpr)(nil)) {
			k := r.cls.Of(c.Node().(*ast.CallExpr))
			switch {
			case k.Role&calls.CreateFile != 0 && len(k.Expr.Args) == 3 && astq.MentionsName(k.Expr.Args[1], "O_EXCL"):
				if n := g.exclusiveCreate(d, k.Expr); n != nil {
					handled = append(handled, n)
				}
			case k.Role&calls.StatFile != 0 && len(k.Expr.Args) == 1 && g.namesPIDFile(k.Expr.Args[0]):
				g.existenceGuard(d, c, k.Expr)
			}
		}
	}
	for _, d := range flow.Funcs() {
		if s := flow.Summary(d.Fn); s.Locks || s.Verifies || s.Signals {
			continue
		}
		for c := range d.Cur.Preorder((*ast.CallExpr)(nil)) {
			if !astq.Within(c.Node(), handled) {
				g.livenessGuard(d, c)
			}
		}
	}
}

// report adds a finding of the rule at call.
func (g *pidfileGuards) report(call *ast.CallExpr, msg string) {
	g.r.add(g.r.fileOf(call.Pos()), &finding{rule: g.rule, pos: call.Pos(), end: call.End(), msg: msg + blockAdvice})
}

// namesPIDFile reports whether a path expression speaks of a PID file: a
// name or constant with "pid" in it.
func (g *pidfileGuards) namesPIDFile(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			found = found || calls.NamesPID(n.Name)
			if c, ok := g.info.Uses[n].(*types.Const); ok {
				found = found || calls.NamesPID(c.Val().String())
			}
		case *ast.BasicLit:
			found = found || n.Kind == token.STRING && calls.NamesPID(n.Value)
		}
		return !found
	})
	return found
}

// exclusiveCreate checks os.OpenFile(path, …|O_EXCL, …) (shape A) and
// returns the function it reported, whose probes are then not reported
// again.
func (g *pidfileGuards) exclusiveCreate(d pidflow.Func, call *ast.CallExpr) ast.Node {
	if g.flow.Locked(call.Args[0]) {
		return nil
	}
	// What runs around the create, but for deferred clean-ups (which a
	// SIGKILL skips): the recovery, if any. A helper that only creates
	// leaves the recovery to its callers.
	var s pidflow.Summary
	g.flow.SummarizeNode(&s, d.Cur.Node(), true)
	if !s.OwnPID {
		for _, cl := range g.flow.CallersOf(d.Fn) {
			if cd, ok := g.flow.FuncOf(cl); ok {
				g.flow.SummarizeNode(&s, cd.Cur.Node(), true)
			}
		}
		if !s.OwnPID {
			return nil // not a PID file: an exclusive temp or marker file
		}
	}
	switch {
	case s.Locks || s.Verifies:
		return nil
	case !s.Removes:
		g.report(call, "PID file created with O_EXCL and no stale-file recovery: a file left by a crash (SIGKILL, power loss) fails every later start, and "+staysDown)
	case s.BlindProbe:
		g.report(call, "PID file created with O_EXCL and recovered only when a probe of the PID it names says dead: after a reboot or PID reuse an unrelated process has that number, every start fails, and "+staysDown)
	default:
		return nil // removed unconditionally: not a blocker
	}
	return d.Cur.Node()
}

// existenceGuard checks "if _, err := os.Stat(pidfile); err == nil {
// refuse }" (shape B).
func (g *pidfileGuards) existenceGuard(d pidflow.Func, c inspector.Cursor, call *ast.CallExpr) {
	assign, ok := c.Parent().Node().(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 2 {
		return
	}
	var errVar *types.Var
	if id, ok := assign.Lhs[1].(*ast.Ident); ok {
		errVar, _ = g.info.ObjectOf(id).(*types.Var)
	}
	if errVar == nil {
		return
	}
	for u := range astq.UsesIn(g.info, d.Cur, errVar) {
		branch := astq.BranchWhen(u, existsPolarity(g.info))
		if branch == nil || !refuses(g.info, d.Fn, branch) {
			continue
		}
		var s pidflow.Summary
		g.flow.SummarizeNode(&s, branch, false)
		if s.Removes || s.BlindProbe || s.Verifies || s.Locks {
			continue // recovery, or a read and probe (shape C)
		}
		g.report(call, "start refused while the PID file exists: a file left by a crash (SIGKILL, power loss) fails every later start, and "+staysDown)
		return
	}
}

// existsPolarity says, for an error from os.Stat used at c, whether a true
// condition means "exists" (+1), "missing" (-1), or neither (0).
func existsPolarity(info *types.Info) func(c inspector.Cursor) int {
	return func(c inspector.Cursor) int {
		switch p := c.Parent().Node().(type) {
		case *ast.BinaryExpr:
			if astq.IsNil(info, p.X) || astq.IsNil(info, p.Y) {
				if p.Op == token.EQL {
					return +1
				}
				return -1
			}
		case *ast.CallExpr:
			fn := calls.Callee(info, p)
			switch {
			case calls.IsPkgFunc(fn, "os", "IsNotExist"):
				return -1
			case calls.IsPkgFunc(fn, "os", "IsExist"):
				return +1
			case calls.IsPkgFunc(fn, "errors", "Is") && len(p.Args) == 2:
				if uses.IsNotExistError(info, p.Args[1]) {
					return -1
				}
				if uses.IsExistError(info, p.Args[1]) {
					return +1
				}
			}
			return 0
		}
		return 0
	}
}

// refuses reports whether a block of fn ends the start with an error: it
// returns a non-nil error, exits with a non-zero status, or calls
// log.Fatal.
func refuses(info *types.Info, fn *types.Func, b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		res := fn.Signature().Results()
		if res.Len() == 0 || !astq.IsError(res.At(res.Len()-1).Type()) {
			return false
		}
		if len(s.Results) == res.Len() {
			return !astq.IsNil(info, s.Results[len(s.Results)-1])
		}
		// A bare return of a named error set just before:
		// err = fmt.Errorf("already running"); return
		errVar := res.At(res.Len() - 1)
		for _, st := range b.List[:len(b.List)-1] {
			if a, ok := st.(*ast.AssignStmt); ok && len(a.Lhs) == 1 && len(a.Rhs) == 1 {
				if id, ok := a.Lhs[0].(*ast.Ident); ok && info.ObjectOf(id) == errVar && !astq.IsNil(info, a.Rhs[0]) {
					return true
				}
			}
		}
		return false
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn := calls.Callee(info, call)
		switch r := calls.RolesOf(fn, ""); {
		case r&calls.Exit != 0 && len(call.Args) == 1:
			return !astq.IsZero(info, call.Args[0])
		case r&calls.Fatal != 0:
			return true
		}
		return fn != nil && strings.HasPrefix(fn.Name(), "Fatal") && calls.RecvTypeName(fn) == "Logger"
	}
	return false
}

// livenessGuard checks a probe of a PID read from storage whose "alive"
// answer refuses the start (shape C).
func (g *pidfileGuards) livenessGuard(d pidflow.Func, c inspector.Cursor) {
	call := c.Node().(*ast.CallExpr)
	pid, errResult, ok := g.flow.BlindProbe(call, g.probing)
	if !ok || pid != nil && g.flow.Origin(d.Fn, pid) == nil {
		return
	}
	// alive: +1 when a true test of the result at u means alive.
	alive := func(u inspector.Cursor) int {
		if !errResult {
			return +1
		}
		if b, ok := u.Parent().Node().(*ast.BinaryExpr); ok && (astq.IsNil(g.info, b.X) || astq.IsNil(g.info, b.Y)) {
			if b.Op == token.EQL {
				return +1
			}
			return -1
		}
		return 0
	}
	var answers []inspector.Cursor
	cur, parent := astq.OuterParens(c)
	switch a := parent.Node().(type) {
	case *ast.AssignStmt:
		answer := 0
		if calls.IsPkgFunc(calls.Callee(g.info, call), "os", "FindProcess") {
			answer = 1 // its error
		}
		if answer >= len(a.Lhs) {
			return
		}
		if id, ok := a.Lhs[answer].(*ast.Ident); ok {
			if v, ok := g.info.ObjectOf(id).(*types.Var); ok {
				answers = slices.Collect(astq.UsesIn(g.info, d.Cur, v))
			}
		}
	default:
		answers = append(answers, cur)
	}
	for _, u := range answers {
		if b := astq.BranchWhen(u, alive); b != nil && refuses(g.info, d.Fn, b) {
			g.report(call, "start refused while a probe says the PID read from the PID file is alive: after a crash and a reboot or PID reuse an unrelated process has that number, every start fails, and "+staysDown)
			return
		}
	}
}
