package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
	"github.com/pidlint/pidlint/analyzer/internal/uses"
)

// A site is one call that may be a probe, as a rule's check sees it: the
// classified call, where it is, and the OSes it builds for. Checks are
// functions of a site; its methods make findings and fixes.
type site struct {
	calls.Call
	rule string // the ID of the rule that checks the call
	r    *runner
	fs   *fileState
	cur  inspector.Cursor
	os   goos.Set // the OSes this call builds for
}

func (s *site) info() *types.Info { return s.r.pass.TypesInfo }

// errProbe describes a probe whose error result is the liveness answer:
// kill(pid, 0), Signal(0), or a wrapper of them.
type errProbe struct {
	what string // the probe as the message names it
	// windows: the probe always fails on Windows, whatever the caller
	// does with the error (Process.Signal).
	windows bool
	// check is the safeprobe call that replaces the probe keeping "nil
	// means alive"; alive the one that replaces "probe == nil". Either
	// may be empty when no fix fits.
	check, alive string
	advice       string     // the safeprobe function to name in the message
	found        *foundOnly // the FindProcess a fix makes dead, or nil
	// child: the probe asks about a child this program started, which
	// reads as alive until it is waited for; instead is then the advice
	// that ends the message, in place of advice.
	child   bool
	instead string
	// process: the probe signals an *os.Process, which may hold a pidfd.
	process bool
}

// errProbe reports a probe whose error at index is the liveness answer.
func (s *site) errProbe(p errProbe, index int) {
	u := uses.Of(s.info(), s.cur, index)
	unix := s.os & goos.Unix // where EPERM and zombies exist
	var f *finding
	switch {
	case p.windows && s.os.Has(goos.Windows):
		f = s.finding("%s always fails on windows (where this code builds): every process reads as dead", p.what)
		f.everywhere = true
		if u.Kind != uses.Text && !u.Identity {
			f.fix = s.replaceCall(p.check)
		}
	case unix == 0:
		f = s.rawProbe(p.what)
	case u.Kind == uses.Text && u.TextApart:
		// The text tells ESRCH from EPERM: only its fragility is wrong.
		f = s.finding("%s decided by comparing err.Error() text: the text is not an API (a wrapped error does not match, another OS words it differently)", p.what)
	case u.Kind == uses.Text:
		f = s.finding("%s decided by comparing err.Error() text: the text is not an API, and EPERM still reads as dead on %s", p.what, goos.Describe(unix))
	case u.Kind == uses.Verdict && u.Inverted:
		f = s.finding("inverted liveness test: %s fails for a process that is gone, yet a failure here reads as alive", p.what)
	case u.Kind == uses.Verdict && p.child:
		f = s.finding("%s on a child this program started reads it as alive after it exits, until it is waited for (a zombie answers the probe) on %s (where this code builds)", p.what, goos.Describe(unix))
	case u.Kind == uses.Verdict:
		if p.process {
			f = s.finding("%s as a liveness test %s", p.what, misreads(s, unix))
		} else {
			f = s.finding("%s as a liveness test reads EPERM (another user's process) as dead and a zombie or reused PID as alive on %s (where this code builds)", p.what, goos.Describe(unix))
		}
		if u.Direct != nil && p.alive != "" {
			alive := p.alive
			if u.Direct.Op.String() == "!=" {
				alive = "!" + alive
			}
			f.fix = s.replace(u.Direct, alive, s.Expr)
		} else if !u.Identity {
			f.fix = s.replaceCall(p.check)
		}
	default:
		f = s.rawProbe(p.what)
		if u.Kind != uses.Text && !u.Identity {
			f.fix = s.replaceCall(p.check)
		}
	}
	if f.fix != nil && p.found != nil {
		// The fix names the PID, not the process: the FindProcess goes.
		f.fix.dead = p.found.dead
		if p.alive != "" && strings.TrimPrefix(f.fix.newText, "!") == p.alive {
			f.fix.dead = p.found.deadAlive
		}
	}
	s.r.add(s.fs, f.advise(p))
}

// advise ends the message with what to use instead.
func (f *finding) advise(p errProbe) *finding {
	if f.rawProbe {
		return f
	}
	if p.instead != "" {
		f.msg += "; " + p.instead
		return f
	}
	use := p.advice
	if f.fix != nil && p.alive != "" && strings.TrimPrefix(f.fix.newText, "!") == p.alive {
		use = "safeprobe.Alive"
	}
	f.msg += "; use " + use
	return f
}

// finding is a finding of the site's rule at its call.
func (s *site) finding(format string, args ...any) *finding {
	return &finding{rule: s.rule, pos: s.Expr.Pos(), end: s.Expr.End(), msg: fmt.Sprintf(format, args...)}
}

// rawProbe is the -strict finding for a probe that is correct where it
// stands but does not go through safeprobe.
func (s *site) rawProbe(what string) *finding {
	f := s.finding("raw liveness probe %s: route it through safeprobe (strict mode)", what)
	f.rawProbe = true
	return f
}

// safeprobeCall returns "safeprobe.name(arg)" when arg has type int (what
// safeprobe takes) and the file can name safeprobe here; else "".
func (s *site) safeprobeCall(name string, arg ast.Expr) string {
	if name != "CheckProcess" && (!astq.IsInteger(s.info(), arg, true) || notAProcess(s.info(), arg)) {
		return ""
	}
	sp := s.r.safeprobeName(s.fs, s.Expr.Pos())
	if sp == "" {
		return ""
	}
	return fmt.Sprintf("%s.%s(%s)", sp, name, s.fs.source(arg))
}

// notAProcess reports whether the PID expression e names a process group
// (kill(-pgid, 0)) or is a constant no process has: safeprobe answers only
// for a process, so a fix would change what the code asks.
func notAProcess(info *types.Info, e ast.Expr) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.SUB {
		return true
	}
	v, ok := astq.IntConst(info, e)
	return ok && v <= 0
}

// replaceCall is the fix that replaces the probe call with text.
func (s *site) replaceCall(text string) *fixPlan {
	return s.replace(s.Expr, text, s.Expr)
}

// assignError is the fix that turns "_, err := probe" into "err := check".
func (s *site) assignError(assign *ast.AssignStmt, check string) *fixPlan {
	return s.replace(assign, fmt.Sprintf("%s %s %s", s.fs.source(assign.Lhs[1]), assign.Tok, check), s.Expr)
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
