package analyzer

import (
	"bytes"
	"go/ast"
	"go/token"
	"strings"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
	"github.com/pidlint/pidlint/analyzer/internal/uses"
)

var signalZeroRule = checker{
	rule:        "PL002",
	calls:       []callCheck{{roles: calls.ProcessSignal, check: checkSignal}},
	ignoredFile: signalZeroSyntax,
}

// checkSignal checks (*os.Process).Signal with a constant 0 or nil signal.
func checkSignal(s *site) {
	checkSignalESRCH(s)
	switch {
	case s.Sig == nil:
	case s.SigNil:
		signalNil(s)
	case s.SigZero && ownChild(s.r, s.cur, s.PID):
		s.errProbe(errProbe{
			what:    "Process.Signal(0)",
			windows: true,
			child:   true,
			instead: childAdvice(s),
		}, 0)
	case s.SigZero:
		p := errProbe{
			what:    "Process.Signal(0)",
			windows: true,
			process: true,
			check:   s.safeprobeCall("CheckProcess", s.PID),
			advice:  "safeprobe.CheckProcess",
		}
		// A process found only for this probe: the code had only a PID.
		if found := foundOnlyAt(s); found != nil {
			p.found = found
			p.alive = s.safeprobeCall("Alive", found.pid)
			if found.dead != nil {
				p.check, p.advice = s.safeprobeCall("Check", found.pid), "safeprobe.Check"
			}
		}
		s.errProbe(p, 0)
	}
}

// childAdvice is what to do instead of probing a child this program
// started: wait for it; from Go 1.26 on, or look at the handle its Process
// holds (a pidfd on Linux, a process handle on windows).
func childAdvice(s *site) string {
	advice := "wait for it instead: a goroutine that calls Wait and records the exit"
	if goAtLeast(s.r.pass, s.fs.file, "go1.26") {
		advice += ", or check the handle its Process holds (Process.WithHandle: a pidfd on linux, a process handle on windows)"
	}
	return advice
}

// signalNil reports Process.Signal(nil) whose error is used: it fails on
// every OS ("os: unsupported signal type" on Unix, EWINDOWS on Windows), so
// as a probe every process reads as dead.
func signalNil(s *site) {
	u := uses.Of(s.info(), s.cur, 0)
	if u.Kind == uses.None {
		return
	}
	f := s.finding("Process.Signal(nil) fails on every OS (os: unsupported signal type; on windows EWINDOWS): every process reads as dead; use safeprobe.CheckProcess")
	f.everywhere = true
	if u.Kind != uses.Text && !u.Identity {
		f.fix = s.replaceCall(s.safeprobeCall("CheckProcess", s.PID))
	}
	s.r.add(s.fs, f)
}

// signalZeroSyntax checks a file that does not build on this host, from
// its syntax: Process.Signal(syscall.Signal(0)) in a file that builds for
// windows, so that a run on Linux sees it.
func signalZeroSyntax(r *runner, name string, src []byte, rule string) {
	if !bytes.Contains(src, []byte(".Signal(")) {
		return // parse only files that may hold the probe
	}
	fs := r.parseIgnored(name, src)
	if fs == nil || !r.buildable(fs, fs.os).Has(goos.Windows) {
		return
	}
	names := syscallNames(fs.file)
	ast.Inspect(fs.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Signal" && isSignalZeroSyntax(call.Args[0], names) {
			r.add(fs, &finding{
				rule: rule, pos: call.Pos(), end: call.End(), everywhere: true,
				msg: "Process.Signal(0) always fails on windows (where this code builds): every process reads as dead; use safeprobe.CheckProcess",
			})
		}
		return true
	})
}

// syscallNames returns the names under which f imports syscall and unix.
func syscallNames(f *ast.File) map[string]bool {
	names := make(map[string]bool)
	for _, spec := range f.Imports {
		p := importPath(spec)
		if p != calls.Syscall && p != calls.Unix {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		names[name] = true
	}
	return names
}

// isSignalZeroSyntax reports whether e reads syscall.Signal(0) or
// unix.Signal(0) under the file's import names.
func isSignalZeroSyntax(e ast.Expr, names map[string]bool) bool {
	conv, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(conv.Args) != 1 {
		return false
	}
	sel, ok := conv.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Signal" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || !names[pkg.Name] {
		return false
	}
	lit, ok := ast.Unparen(conv.Args[0]).(*ast.BasicLit)
	return ok && lit.Kind == token.INT && (lit.Value == "0" || lit.Value == "0x0" || lit.Value == "00")
}
