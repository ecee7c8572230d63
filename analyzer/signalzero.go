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

var signalZeroRule = Rule{
	ID:      "PL002",
	Name:    "signal-zero",
	Title:   "Process.Signal(0) used as a liveness test",
	Summary: "`(*os.Process).Signal(0)` as above, and always in code that builds for Windows",
	Text: `(*os.Process).Signal(syscall.Signal(0)) has kill(pid, 0)'s problems on
Unix (EPERM reads as dead, zombies as alive). A reused PID reads as alive
too, with a difference: since Go 1.23, on Linux 5.3 and later, a Process
from os.FindProcess or StartProcess holds a pidfd, so its Signal cannot
reach a process that took the PID after it was found; a PID reused before
FindProcess still reads as alive. kill(2) (PL001) and a Process without a
pidfd (a go line before 1.23, whose toolchain may predate pidfds; kernels
before 5.3; other OSes) reach whoever has the number now. The message says
which applies from the file's go line (its //go:build goN or its
module's). On Windows it always fails with
"not supported by windows", so every process reads as dead: the rule reports
it in every file that builds for windows, however the error is handled,
unless a runtime.GOOS test (in place, or through a local variable such as
isWindows := runtime.GOOS == "windows") keeps it off Windows. A package
that cannot build for windows (a file the windows build would include
calls syscall.Kill or imports golang.org/x/sys/unix; an x_unix.go name is
no build constraint) gets the Unix message only.
Process.Signal(nil) (or os.Signal(nil)) fails on every OS, so it is
reported wherever its error is used. Process.Signal never returns ESRCH:
os turns it into os.ErrProcessDone on every Unix (os/exec_unix.go,
os/pidfd_linux.go), so !errors.Is(err, syscall.ESRCH), err != syscall.ESRCH
or a case syscall.ESRCH after Signal never sees a dead process, and after
Signal(0) reads it as alive: reported on the ESRCH, which the fix replaces
with os.ErrProcessDone. Not reported where the error is also compared with
os.ErrProcessDone, or where Signal(0)'s error is returned as it is (the
caller sees os.ErrProcessDone): the ESRCH test is then dead code, not a
wrong answer. On a child the program started itself (an
exec.Cmd's Process, os.StartProcess's, or a variable or field set only from
them), Signal(0) succeeds until the child is waited for, exited or not: the
finding points at Wait (a goroutine that waits and records the exit) and,
where the go line is 1.26 or later, at the handle the Process holds
(Process.WithHandle), and offers no PID probe as a fix. Comparing err.Error() with
"os: process already finished" instead of errors.Is(err, os.ErrProcessDone)
is reported too, and with "no such process" after Process.Signal or Kill,
which never matches. Receivers other than *os.Process are not this rule.
The fix probes through safeprobe.CheckProcess(p); when p comes from an
os.FindProcess(pid) just before, used for nothing else, it asks about the
PID instead (safeprobe.Alive(pid) for "== nil", safeprobe.Check(pid) for
the error) and deletes the FindProcess, with an "if err != nil { return
false }" after it when Alive replaces the probe, and imports left unused.`,
	Bad: `p, _ := os.FindProcess(pid)
if err := p.Signal(syscall.Signal(0)); err != nil {
	return false // dead?
}`,
	Good: `if err := safeprobe.Check(pid); err != nil {
	return false // exited, a zombie, or never existed
}`,
	OS:          "windows (always), Unix",
	Fix:         true,
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
