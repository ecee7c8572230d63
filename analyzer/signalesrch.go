package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/pidlint/pidlint/analyzer/internal/goos"
	"github.com/pidlint/pidlint/analyzer/internal/uses"
)

// Process.Signal's error compared with ESRCH: os turns kill(2)'s and
// pidfd_send_signal(2)'s ESRCH into os.ErrProcessDone (convertESRCH in
// os/exec_unix.go, used by os/pidfd_linux.go too), so the comparison never
// matches on Unix. After Signal(0) a dead process reads as alive.

// checkSignalESRCH reports each ESRCH the error of the Process.Signal call
// at s is compared with, in code that builds for a Unix. The finding
// stands on the ESRCH, which the fix replaces with os.ErrProcessDone.
func checkSignalESRCH(s *site) {
	unix := s.os & goos.Unix
	if unix == 0 {
		return // elsewhere Signal fails otherwise (EWINDOWS): the probe's finding says so
	}
	u := uses.Of(s.info(), s.cur, 0)
	if u.ProcessDone || s.SigZero && u.ReturnedAsIs {
		// os.ErrProcessDone is still seen, here or by the caller the
		// error is returned to: the ESRCH test is dead code, not a
		// wrong verdict.
		return
	}
	for _, e := range u.ESRCH {
		what := "this test never matches"
		if s.SigZero {
			what = "a dead process reads as alive"
		}
		f := &finding{
			rule: s.rule, pos: e.Pos(), end: e.End(),
			msg: "Process.Signal never returns " + s.fs.source(e) + ": it returns os.ErrProcessDone for a process that is gone, so " +
				what + " on " + goos.Describe(unix) + " (where this code builds); compare with os.ErrProcessDone",
		}
		if os := s.osName(e); os != "" {
			if f.fix = s.replace(e, os+".ErrProcessDone", e); f.fix != nil {
				f.fix.std = true
			}
		}
		s.r.add(s.fs, f)
	}
}

// osName is the name under which the file imports package os, if a fix
// can use it at e; else "".
func (s *site) osName(e ast.Expr) string {
	name := s.fs.pkgNameIn(s.info(), "os")
	if name == "" {
		return ""
	}
	if scope := s.r.pass.Pkg.Scope().Innermost(e.Pos()); scope != nil {
		if _, obj := scope.LookupParent(name, e.Pos()); obj != nil {
			if pn, ok := obj.(*types.PkgName); !ok || pn.Imported().Path() != "os" {
				return "" // shadowed here
			}
		}
	}
	return name
}
