package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

// A site is one call that may be a probe.
type site struct {
	r    *runner
	fs   *fileState
	cur  inspector.Cursor
	call *ast.CallExpr
	fn   *types.Func
	os   goos.Set // the OSes this call builds for
}

func (s *site) info() *types.Info { return s.r.pass.TypesInfo }

// errProbe describes a probe whose error result is the liveness answer:
// kill(pid, 0), Signal(0), or a wrapper of them.
type errProbe struct {
	rule string
	what string // the probe as the message names it
	// windows: the probe always fails on Windows, whatever the caller
	// does with the error (Process.Signal).
	windows bool
	// check is the safeprobe call that replaces the probe keeping "nil
	// means alive"; alive the one that replaces "probe == nil". Either
	// may be empty when no fix fits.
	check, alive string
	advice       string // the safeprobe function to name in the message
}

// kill handles syscall.Kill and unix.Kill (PL001).
func (s *site) kill() {
	if len(s.call.Args) != 2 || !isZero(s.info(), s.call.Args[1]) {
		return
	}
	pid := s.call.Args[0]
	s.errProbe(errProbe{
		rule:   "PL001",
		what:   s.fn.Pkg().Name() + ".Kill(pid, 0)",
		check:  s.safeprobeCall("Check", pid),
		alive:  s.safeprobeCall("Alive", pid),
		advice: "safeprobe.Check",
	}, 0)
}

// syscallKill handles syscall.Syscall(SYS_KILL, pid, 0, …) (PL001). Its
// errno result is a syscall.Errno, so no safeprobe call replaces it in place.
func (s *site) syscallKill() {
	args := s.call.Args
	if len(args) < 3 || !isZero(s.info(), args[2]) ||
		!(isPkgObj(s.info(), args[0], syscallPath, "SYS_KILL") || isPkgObj(s.info(), args[0], unixPath, "SYS_KILL")) {
		return
	}
	s.errProbe(errProbe{
		rule:   "PL001",
		what:   s.fn.Pkg().Name() + "." + s.fn.Name() + "(SYS_KILL, pid, 0)",
		advice: "safeprobe.Check",
	}, 2)
}

// signal handles (*os.Process).Signal with a constant 0 signal (PL002).
func (s *site) signal() {
	if len(s.call.Args) != 1 || !isZero(s.info(), s.call.Args[0]) {
		return
	}
	sel, ok := ast.Unparen(s.call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	s.errProbe(errProbe{
		rule:    "PL002",
		what:    "Process.Signal(0)",
		windows: true,
		check:   s.safeprobeCall("CheckProcess", sel.X),
		advice:  "safeprobe.CheckProcess",
	}, 0)
}

// errProbe reports a probe whose error at index is the liveness answer.
func (s *site) errProbe(p errProbe, index int) {
	u := useOf(s.info(), s.cur, index)
	unix := s.os & goos.Unix // where EPERM and zombies exist
	var f *finding
	switch {
	case p.windows && s.os.Has(goos.Windows):
		f = s.finding(p.rule, "%s always fails on windows (where this code builds): every process reads as dead", p.what)
		f.everywhere = true
		if u.kind != useText && !u.identity {
			f.fix = s.replaceCall(p.check)
		}
	case unix == 0:
		f = s.rawProbe(p.rule, p.what)
	case u.kind == useText:
		f = s.finding(p.rule, "%s decided by comparing err.Error() text: the text is not an API, and EPERM still reads as dead on %s", p.what, describeOS(unix))
	case u.kind == useVerdict && u.inverted:
		f = s.finding(p.rule, "inverted liveness test: %s fails for a process that is gone, yet a failure here reads as alive", p.what)
	case u.kind == useVerdict:
		f = s.finding(p.rule, "%s as a liveness test reads EPERM (another user's process) as dead and a zombie or reused PID as alive on %s (where this code builds)", p.what, describeOS(unix))
		if u.direct != nil && p.alive != "" {
			alive := p.alive
			if u.direct.Op.String() == "!=" {
				alive = "!" + alive
			}
			f.fix = s.replace(u.direct, alive, s.call)
		} else if !u.identity {
			f.fix = s.replaceCall(p.check)
		}
	default:
		f = s.rawProbe(p.rule, p.what)
		if u.kind != useText && !u.identity {
			f.fix = s.replaceCall(p.check)
		}
	}
	s.r.add(s.fs, f.advise(p))
}

// advise ends the message with what to use instead.
func (f *finding) advise(p errProbe) *finding {
	if f.rawProbe {
		return f
	}
	use := p.advice
	if f.fix != nil && p.alive != "" && strings.TrimPrefix(f.fix.newText, "!") == p.alive {
		use = "safeprobe.Alive"
	}
	f.msg += "; use " + use
	return f
}

func (s *site) finding(rule, format string, args ...any) *finding {
	return &finding{rule: rule, pos: s.call.Pos(), end: s.call.End(), msg: fmt.Sprintf(format, args...)}
}

// rawProbe is the -strict finding for a probe that is correct where it
// stands but does not go through safeprobe.
func (s *site) rawProbe(rule, what string) *finding {
	f := s.finding(rule, "raw liveness probe %s: route it through safeprobe (strict mode)", what)
	f.rawProbe = true
	return f
}

// safeprobeCall returns "safeprobe.name(arg)" when arg has type int (what
// safeprobe takes) and the file can name safeprobe here; else "".
func (s *site) safeprobeCall(name string, arg ast.Expr) string {
	if name != "CheckProcess" && (!isIntType(s.info(), arg) || notAProcess(s.info(), arg)) {
		return ""
	}
	sp := s.r.safeprobeName(s.fs, s.call.Pos())
	if sp == "" {
		return ""
	}
	return fmt.Sprintf("%s.%s(%s)", sp, name, s.r.source(s.fs, arg))
}

// notAProcess reports whether the PID expression e names a process group
// (kill(-pgid, 0)) or is a constant no process has: safeprobe answers only
// for a process, so a fix would change what the code asks.
func notAProcess(info *types.Info, e ast.Expr) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.SUB {
		return true
	}
	v, ok := intConst(info, e)
	return ok && v <= 0
}

// replaceCall is the fix that replaces the probe call with text.
func (s *site) replaceCall(text string) *fixPlan {
	return s.replace(s.call, text, s.call)
}

func (s *site) replace(n ast.Node, text string, removed ast.Node) *fixPlan {
	if text == "" || usesDotImport(s.info(), s.fs.file, removed) {
		return nil
	}
	return &fixPlan{pos: n.Pos(), end: n.End(), newText: text, removed: removed}
}

// usesDotImport reports whether n names something of a package the file
// imports with "import .": a fix that removes the last such use would
// leave the import unused, and the file would not compile.
func usesDotImport(info *types.Info, file *ast.File, n ast.Node) bool {
	var dot []*types.Package
	for _, spec := range file.Imports {
		if spec.Name != nil && spec.Name.Name == "." {
			if pn := info.PkgNameOf(spec); pn != nil {
				dot = append(dot, pn.Imported())
			}
		}
	}
	if len(dot) == 0 {
		return false
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := info.Uses[id]; obj != nil && slices.Contains(dot, obj.Pkg()) {
				found = true
			}
		}
		return !found
	})
	return found
}

// findProcess handles os.FindProcess whose error or result is the verdict
// (PL003): it never fails on Unix.
func (s *site) findProcess() {
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
		f = s.rawProbe("PL003", "os.FindProcess (on windows it succeeds for an exited process whose handle is open, and for pid+1..pid+3)")
	} else {
		f = s.finding("PL003", "os.FindProcess never fails on %s (where this code builds): every PID reads as alive; use safeprobe.Check or safeprobe.Alive", describeOS(unix))
	}
	// "_, err := os.FindProcess(pid)" becomes "err := safeprobe.Check(pid)".
	if blank(assign.Lhs[0]) && procUse == processUnused && errUse.kind != useText && !errUse.identity && !errUse.notExist {
		if check := s.safeprobeCall("Check", s.call.Args[0]); check != "" {
			f.fix = s.replace(assign, fmt.Sprintf("%s %s %s", s.r.source(s.fs, assign.Lhs[1]), assign.Tok, check), s.call)
		}
	}
	s.r.add(s.fs, f)
}

func blank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

type processUseKind int

const (
	processUnused      processUseKind = iota // blank, or only Release/Pid
	processNilCompared                       // "p != nil" is the verdict
	processProbed                            // signalled, killed, waited for or passed on
)

// processUse says what code does with the *os.Process that lhs receives.
func processUse(info *types.Info, cur inspector.Cursor, lhs ast.Expr) processUseKind {
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return processProbed // stored somewhere: used elsewhere
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok {
		return processUnused
	}
	body := enclosingFunc(cur)
	if !body.Valid() {
		return processProbed
	}
	kind := processUnused
	for c := range body.Preorder((*ast.Ident)(nil)) {
		if info.Uses[c.Node().(*ast.Ident)] != v {
			continue
		}
		switch p := c.Parent().Node().(type) {
		case *ast.BinaryExpr:
			if isNil(info, p.X) || isNil(info, p.Y) {
				kind = processNilCompared
				continue
			}
		case *ast.SelectorExpr:
			if p.Sel.Name == "Pid" || p.Sel.Name == "Release" {
				continue
			}
		}
		return processProbed
	}
	return kind
}
