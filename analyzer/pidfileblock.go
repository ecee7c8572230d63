package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// PL008 pidfile-stale-block: a PID file used as the single-instance guard
// without a kernel lock, so that a file left by a crash blocks every start.

var pidfileBlockRule = Rule{
	ID:      "PL008",
	Name:    "pidfile-stale-block",
	Title:   "a PID file as the single-instance guard, without a kernel lock",
	Summary: "a PID file that refuses the start (`O_EXCL` create, `os.Stat` exists, PID probed alive) with no kernel lock: a crash leaves it and every restart fails",
	Text: `A PID file outlives its process: SIGKILL, a panic before the clean-up, a
power cut or a reboot leave it behind. A daemon that refuses to start while
the file exists - created with O_CREATE|O_EXCL and no stale-file recovery,
or os.Stat(pidfile) succeeding - then fails every start, and under systemd
Restart= or launchd KeepAlive it respawns in an endless loop. Reading the
PID and refusing while kill(pid, 0), Signal(0), os.FindProcess or
safeprobe.Alive says it is alive (or recovering only when such a probe says
it is dead) blocks the same way after a reboot or PID reuse, when an
unrelated process has the number; this is so on every OS. The rule reports
those guards in a package that writes its own PID. Not reported: files also
locked with flock, fcntl or LockFileEx (gofrs/flock, lockedfile, safeprobe),
recovery that checks the holder's identity (start time, command line),
PID files written for other tools (systemd PIDFile=) and never read back as
a guard, and O_EXCL files that never hold the own PID. A kernel lock dies
with its holder: safeprobe.TryAcquire takes over a stale file by itself.`,
	Bad: `f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
if err != nil {
	return fmt.Errorf("already running: %w", err) // for ever, after a crash
}
fmt.Fprintf(f, "%d\n", os.Getpid())`,
	Good: `lock, err := safeprobe.TryAcquire(pidFile, nil)
if err != nil {
	return err // ErrLocked names the live holder; a stale file is taken over
}
defer lock.Release()`,
	OS:  "every OS",
	pkg: (*runner).pidfileBlock,
}

// pidfileGuards checks one package's PID-file guards.
type pidfileGuards struct {
	*pidFlow
	rule         string
	probesStored map[*types.Func]bool // see readsAndProbes
}

const blockAdvice = "; use safeprobe.TryAcquire, whose kernel lock dies with its holder"

// pidfileBlock reports PL008 in the package.
func (r *runner) pidfileBlock(rule string) {
	p := &pidfileGuards{pidFlow: r.pidFlow(), rule: rule, probesStored: map[*types.Func]bool{}}
	ownPID := false
	for _, s := range p.summary {
		ownPID = ownPID || s.ownPID
	}
	if !ownPID {
		return // no PID file of its own to guard with
	}
	var handled []ast.Node // functions whose O_EXCL create is reported: their probes are part of it
	for _, d := range p.decls {
		if p.summary[d.fn].locks {
			continue
		}
		for c := range d.cur.Preorder((*ast.CallExpr)(nil)) {
			call := c.Node().(*ast.CallExpr)
			fn := callee(p.info, call)
			switch {
			case fn == nil:
			case isPkgFunc(fn, "os", "OpenFile") && len(call.Args) == 3 && mentionsName(call.Args[1], "O_EXCL"):
				if n := p.exclusiveCreate(d, call); n != nil {
					handled = append(handled, n)
				}
			case isPkgFunc(fn, "os", "Stat", "Lstat") && len(call.Args) == 1 && p.namesPIDFile(call.Args[0]):
				p.existenceGuard(d, c, call)
			}
		}
	}
	for _, d := range p.decls {
		if p.summary[d.fn].locks || p.summary[d.fn].verifies || p.summary[d.fn].signals {
			continue
		}
		for c := range d.cur.Preorder((*ast.CallExpr)(nil)) {
			if !within(c.Node(), handled) {
				p.livenessGuard(d, c)
			}
		}
	}
}

func within(n ast.Node, in []ast.Node) bool {
	for _, o := range in {
		if o.Pos() <= n.Pos() && n.End() <= o.End() {
			return true
		}
	}
	return false
}

// mentionsName reports whether e mentions an identifier called name.
func mentionsName(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// namesPIDFile reports whether a path expression speaks of a PID file: a
// name or constant with "pid" in it.
func (p *pidfileGuards) namesPIDFile(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			found = found || strings.Contains(strings.ToLower(n.Name), "pid")
			if c, ok := p.info.Uses[n].(*types.Const); ok {
				found = found || strings.Contains(strings.ToLower(c.Val().String()), "pid")
			}
		case *ast.BasicLit:
			found = found || n.Kind == token.STRING && strings.Contains(strings.ToLower(n.Value), "pid")
		}
		return !found
	})
	return found
}

// exclusiveCreate checks os.OpenFile(path, …|O_EXCL, …) (shape A) and
// returns the function it reported, whose probes are then not reported
// again.
func (p *pidfileGuards) exclusiveCreate(d funcDecl, call *ast.CallExpr) ast.Node {
	if k := pathKey(p.info, call.Args[0]); k != nil && p.locked[k] {
		return nil
	}
	// What runs around the create, but for deferred clean-ups (which a
	// SIGKILL skips): the recovery, if any. A helper that only creates
	// leaves the recovery to its callers.
	var s procSummary
	p.summarizeNode(&s, d.cur.Node(), true)
	if !s.ownPID {
		callers := p.callersOf(d.fn)
		for _, cl := range callers {
			if cd, ok := p.declOf(cl); ok {
				p.summarizeNode(&s, cd.cur.Node(), true)
			}
		}
		if !s.ownPID {
			return nil // not a PID file: an exclusive temp or marker file
		}
	}
	var msg string
	switch {
	case s.locks || s.verifies:
		return nil
	case !s.removes:
		msg = "PID file created with O_EXCL and no stale-file recovery: a file left by a crash (SIGKILL, power loss) fails every later start, and under systemd Restart= or launchd KeepAlive the daemon respawns in an endless loop"
	case s.blindProbe:
		msg = "PID file created with O_EXCL and recovered only when a probe of the PID it names says dead: after a reboot or PID reuse an unrelated process has that number, and every start fails (an endless respawn loop under systemd or launchd)"
	default:
		return nil // removed unconditionally: not a blocker
	}
	p.r.add(p.r.fileOf(call.Pos()), &finding{rule: p.rule, pos: call.Pos(), end: call.End(), msg: msg + blockAdvice})
	return d.cur.Node()
}

// callersOf returns the package's functions that call fn.
func (p *pidfileGuards) callersOf(fn *types.Func) []*types.Func {
	var out []*types.Func
	for _, d := range p.decls {
		for c := range d.cur.Preorder((*ast.CallExpr)(nil)) {
			if f := callee(p.info, c.Node().(*ast.CallExpr)); f != nil && f.Origin() == fn {
				out = append(out, d.fn)
				break
			}
		}
	}
	return out
}

// summarizeNode adds to s the summary of the code in n, with the package's
// functions it calls; without deferred calls if noDefer.
func (p *pidfileGuards) summarizeNode(s *procSummary, n ast.Node, noDefer bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			return !noDefer
		case *ast.BasicLit:
			if n.Kind == token.STRING && verifiesByText(n.Value) {
				s.verifies = true
			}
		case *ast.CallExpr:
			if fn := callee(p.info, n); fn != nil {
				p.classifyCall(s, n, fn)
				if o := p.summary[fn.Origin()]; o != nil {
					s.or(o)
				}
			}
		}
		return true
	})
}

// existenceGuard checks "if _, err := os.Stat(pidfile); err == nil {
// refuse }" (shape B).
func (p *pidfileGuards) existenceGuard(d funcDecl, c inspector.Cursor, call *ast.CallExpr) {
	errIdx := 1
	var errVar *types.Var
	switch parent := c.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(parent.Lhs) != 2 {
			return
		}
		if id, ok := parent.Lhs[errIdx].(*ast.Ident); ok {
			errVar, _ = p.info.ObjectOf(id).(*types.Var)
		}
	}
	if errVar == nil {
		return
	}
	for u := range usesIn(p.info, d.cur, errVar) {
		branch := p.branchWhen(u, existsPolarity(p.info))
		if branch == nil || !p.refuses(d, branch) {
			continue
		}
		var s procSummary
		p.summarizeNode(&s, branch, false)
		if s.removes || s.blindProbe || s.verifies || s.locks {
			continue // recovery, or a read and probe (shape C)
		}
		p.r.add(p.r.fileOf(call.Pos()), &finding{rule: p.rule, pos: call.Pos(), end: call.End(),
			msg: "start refused while the PID file exists: a file left by a crash (SIGKILL, power loss) fails every later start, and under systemd Restart= or launchd KeepAlive the daemon respawns in an endless loop" + blockAdvice})
		return
	}
}

// existsPolarity says, for an error from os.Stat used at c, whether a true
// condition means "exists" (+1), "missing" (-1), or neither (0).
func existsPolarity(info *types.Info) func(c inspector.Cursor) int {
	return func(c inspector.Cursor) int {
		switch p := c.Parent().Node().(type) {
		case *ast.BinaryExpr:
			if isNil(info, p.X) || isNil(info, p.Y) {
				if p.Op == token.EQL {
					return +1
				}
				return -1
			}
		case *ast.CallExpr:
			fn := callee(info, p)
			switch {
			case isPkgFunc(fn, "os", "IsNotExist"):
				return -1
			case isPkgFunc(fn, "os", "IsExist"):
				return +1
			case isPkgFunc(fn, "errors", "Is") && len(p.Args) == 2:
				if isPkgObj(info, p.Args[1], "os", "ErrNotExist") || isPkgObj(info, p.Args[1], "io/fs", "ErrNotExist") {
					return -1
				}
				if isPkgObj(info, p.Args[1], "os", "ErrExist") || isPkgObj(info, p.Args[1], "io/fs", "ErrExist") {
					return +1
				}
			}
			return 0
		}
		return 0
	}
}

// branchWhen returns the block of the if statement around the value at c
// that runs when the tested fact holds: polarity(c) says whether the
// innermost test of c is true when it holds; ! flips it, && and || keep it.
func (p *pidfileGuards) branchWhen(c inspector.Cursor, polarity func(inspector.Cursor) int) *ast.BlockStmt {
	pol := polarity(c)
	if pol == 0 {
		return nil
	}
	// Climb from the test to the condition.
	cur := c.Parent()
	if _, ok := cur.Node().(*ast.CallExpr); !ok {
		if _, ok := cur.Node().(*ast.BinaryExpr); !ok {
			cur = c // a bool used as it is
		}
	}
	for {
		parent := cur.Parent()
		switch n := parent.Node().(type) {
		case *ast.ParenExpr:
		case *ast.UnaryExpr:
			if n.Op != token.NOT {
				return nil
			}
			pol = -pol
		case *ast.BinaryExpr:
			if n.Op != token.LAND && n.Op != token.LOR {
				return nil
			}
		case *ast.IfStmt:
			if cur.ParentEdgeKind() != edge.IfStmt_Cond {
				return nil
			}
			if pol > 0 {
				return n.Body
			}
			b, _ := n.Else.(*ast.BlockStmt)
			return b
		default:
			return nil
		}
		cur = parent
	}
}

// refuses reports whether a block ends the start with an error: it returns
// a non-nil error, exits with a non-zero status, or calls log.Fatal.
func (p *pidfileGuards) refuses(d funcDecl, b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		res := d.fn.Signature().Results()
		if res.Len() == 0 || !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
			return false
		}
		if len(s.Results) == res.Len() {
			return !isNil(p.info, s.Results[len(s.Results)-1])
		}
		// A bare return of a named error set just before:
		// err = fmt.Errorf("already running"); return
		errVar := res.At(res.Len() - 1)
		for _, st := range b.List[:len(b.List)-1] {
			if a, ok := st.(*ast.AssignStmt); ok && len(a.Lhs) == 1 && len(a.Rhs) == 1 {
				if id, ok := a.Lhs[0].(*ast.Ident); ok && p.info.ObjectOf(id) == errVar && !isNil(p.info, a.Rhs[0]) {
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
		fn := callee(p.info, call)
		if isPkgFunc(fn, "os", "Exit") && len(call.Args) == 1 {
			return !isZero(p.info, call.Args[0])
		}
		return isPkgFunc(fn, "log", "Fatal", "Fatalf", "Fatalln") ||
			fn != nil && strings.HasPrefix(fn.Name(), "Fatal") && recvTypeName(fn) == "Logger"
	}
	return false
}

// livenessGuard checks a probe of a PID read from storage whose "alive"
// answer refuses the start (shape C).
func (p *pidfileGuards) livenessGuard(d funcDecl, c inspector.Cursor) {
	call := c.Node().(*ast.CallExpr)
	pid, errResult, ok := p.blindProbe(call)
	if !ok || pid != nil && p.origin(d.fn, pid) == nil {
		return
	}
	// alive: +1 when a true test of the result at u means alive.
	alive := func(u inspector.Cursor) int {
		if !errResult {
			return +1
		}
		if b, ok := u.Parent().Node().(*ast.BinaryExpr); ok && (isNil(p.info, b.X) || isNil(p.info, b.Y)) {
			if b.Op == token.EQL {
				return +1
			}
			return -1
		}
		return 0
	}
	var uses []inspector.Cursor
	cur, parent := outerParens(c)
	switch a := parent.Node().(type) {
	case *ast.AssignStmt:
		answer := 0
		if fn := callee(p.info, call); isPkgFunc(fn, "os", "FindProcess") {
			answer = 1 // its error
		}
		if answer >= len(a.Lhs) {
			return
		}
		if id, ok := a.Lhs[answer].(*ast.Ident); ok {
			if v, ok := p.info.ObjectOf(id).(*types.Var); ok {
				uses = slices.Collect(usesIn(p.info, d.cur, v))
			}
		}
	default:
		uses = append(uses, cur)
	}
	for _, u := range uses {
		if b := p.branchWhen(u, alive); b != nil && p.refuses(d, b) {
			p.r.add(p.r.fileOf(call.Pos()), &finding{rule: p.rule, pos: call.Pos(), end: call.End(),
				msg: "start refused while a probe says the PID read from the PID file is alive: after a crash and a reboot or PID reuse an unrelated process has that number, and every start fails (an endless respawn loop under systemd or launchd)" + blockAdvice})
			return
		}
	}
}

// readsAndProbes reports whether fn is a function of this package that
// answers "alive?" with a bool (its first result) by reading a PID from
// storage and probing it, with no identity check: daemonRunning(pidFile).
func (p *pidfileGuards) readsAndProbes(fn *types.Func) bool {
	fn = fn.Origin()
	if v, ok := p.probesStored[fn]; ok {
		return v
	}
	p.probesStored[fn] = false // no recursion
	res := fn.Signature().Results()
	d, ok := p.declOf(fn)
	if !ok || res.Len() == 0 || !types.Identical(res.At(0).Type(), types.Typ[types.Bool]) ||
		livenessPolarity(fn.Name()) <= 0 || p.summary[fn].verifies {
		return false
	}
	for c := range d.cur.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		if pid, _, ok := p.blindProbe(call); ok && (pid == nil || p.origin(fn, pid) != nil) {
			p.probesStored[fn] = true
			return true
		}
	}
	return false
}

// blindProbe returns the PID a liveness probe asks about (nil when the
// callee reads it itself), and whether its
// answer is an error (nil: alive) rather than a bool.
func (p *pidfileGuards) blindProbe(call *ast.CallExpr) (pid ast.Expr, errResult, ok bool) {
	fn := callee(p.info, call)
	if fn == nil {
		return nil, false, false
	}
	switch {
	case (isPkgFunc(fn, syscallPath, "Kill") || isPkgFunc(fn, unixPath, "Kill")) && len(call.Args) == 2 && isZero(p.info, call.Args[1]):
		return call.Args[0], true, true
	case isProcessMethod(fn, "Signal") && len(call.Args) == 1 && (isZero(p.info, call.Args[0]) || isNilSignal(p.info, call.Args[0])):
		return ast.Unparen(call.Fun).(*ast.SelectorExpr).X, true, true
	case isPkgFunc(fn, "os", "FindProcess") && len(call.Args) == 1:
		return call.Args[0], true, true
	case p.isSafeprobe(fn) && fn.Name() == "Alive" && len(call.Args) == 1:
		return call.Args[0], false, true
	case p.isSafeprobe(fn) && fn.Name() == "Check" && len(call.Args) == 1:
		return call.Args[0], true, true
	case fn.Name() == "PidExists" && len(call.Args) >= 1:
		return call.Args[len(call.Args)-1], false, true
	}
	sig := fn.Signature()
	if p.readsAndProbes(fn) {
		return nil, false, true // isRunning(pidFile): reads the PID itself
	}
	if sig.Results().Len() != 1 || livenessPolarity(fn.Name()) <= 0 {
		return nil, false, false
	}
	if s := p.summary[fn.Origin()]; fn.Pkg() == p.r.pass.Pkg && (s == nil || !s.blindProbe || s.verifies) {
		return nil, false, false
	}
	// Another package's alive(pid) bool: a PID alone cannot say whose the
	// process is, so it is reuse-blind whatever it asks.
	if fn.Pkg() != p.r.pass.Pkg && p.r.wrapperOf(fn) == nil && (sig.Params().Len() != 1 || !takesInt(fn)) {
		return nil, false, false
	}
	if !types.Identical(sig.Results().At(0).Type().Underlying(), types.Typ[types.Bool]) {
		return nil, false, false
	}
	for _, a := range call.Args {
		if isInteger(p.info, a, false) {
			return a, false, true
		}
	}
	return nil, false, false
}
