package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
	"github.com/pidlint/pidlint/analyzer/internal/uses"
)

var procStatRule = checker{
	rule:  "PL004",
	calls: []callCheck{{roles: calls.PathProbe, check: checkProcStat}},
}

// checkProcStat checks Stat, Lstat, Open, ReadDir and Access of /proc/<pid>
// whose error is the verdict.
func checkProcStat(s *site) {
	if len(s.Expr.Args) == 0 {
		return
	}
	path, inline, ok := procPIDPath(s, s.Expr.Args[0])
	if !ok || isSelfPID(s.info(), path) {
		return // /proc/<own PID> tells whether /proc is mounted
	}
	errIndex := 1 // os.Stat and friends return (value, error)
	if s.Fn.Pkg().Path() != "os" {
		errIndex = 0 // the syscalls return only an error
	}
	// Reading what /proc/<pid> holds (its file info, its entries) is not
	// a probe, even when the error is passed on.
	if errIndex == 1 {
		assign, ok := s.cur.Parent().Node().(*ast.AssignStmt)
		inAssign := ok && len(assign.Lhs) == 2
		if inAssign && uses.Process(s.info(), s.cur, assign.Lhs[0]) == uses.ProcessProbed {
			return
		}
		if !inAssign && (s.Fn.Name() == "Open" || s.Fn.Name() == "ReadDir") {
			return
		}
	} else if len(s.Expr.Args) == 2 && readsFilled(s.info(), s.cur, s.Expr.Args[1]) {
		return // Stat(path, &st) and then st read
	}
	u := uses.Of(s.info(), s.cur, errIndex)
	if u.Kind != uses.Verdict && u.Kind != uses.Returned && u.Kind != uses.Text {
		return
	}
	var f *finding
	switch noProc := s.os & goos.NoProcfs; {
	case noProc != 0:
		f = s.finding("/proc/<pid> is not there on %s (where this code builds): every process reads as dead; on linux it exists for zombies and thread IDs; use safeprobe.Alive", goos.Describe(noProc))
	case s.os.Has(goos.Linux):
		f = s.finding("/proc/<pid> exists for zombies and thread IDs, and hidepid=2 hides other users' processes; use safeprobe.Alive")
	default:
		return // solaris, aix, plan9: /proc/<pid> is there, and not linux's
	}
	f.fix = procStatFix(s, path, inline, u, errIndex)
	s.r.add(s.fs, f)
}

// isSelfPID reports whether pid is os.Getpid() (or the syscall's).
func isSelfPID(info *types.Info, pid ast.Expr) bool {
	call, ok := ast.Unparen(pid).(*ast.CallExpr)
	if !ok {
		return false
	}
	return calls.RolesOf(calls.Callee(info, call), "")&calls.Getpid != 0
}

// readsFilled reports whether arg is &v for a variable v that the function
// around cur reads outside the call at cur.
func readsFilled(info *types.Info, cur inspector.Cursor, arg ast.Expr) bool {
	addr, ok := ast.Unparen(arg).(*ast.UnaryExpr)
	if !ok || addr.Op != token.AND {
		return false
	}
	id, ok := ast.Unparen(addr.X).(*ast.Ident)
	if !ok {
		return false
	}
	call := cur.Node()
	for use := range astq.UsesIn(info, astq.EnclosingFunc(cur), info.ObjectOf(id)) {
		if n := use.Node(); n.Pos() < call.Pos() || n.Pos() >= call.End() {
			return true
		}
	}
	return false
}

// procStatFix turns "_, err := os.Stat(path)" (or "err := unix.Access(path,
// F_OK)") into "err := safeprobe.Check(pid)" when the path is written in
// place and the error is only compared with nil.
func procStatFix(s *site, pid ast.Expr, inline bool, u uses.Err, errIndex int) *fixPlan {
	if pid == nil || !inline || u.Kind != uses.Verdict || u.NotExist || u.Identity {
		return nil
	}
	check := s.safeprobeCall("Check", pid)
	if check == "" {
		return nil
	}
	if errIndex == 0 {
		if s.Fn.Name() != "Access" {
			return nil // Stat(path, &st) fills st, which the code may read
		}
		return s.replaceCall(check)
	}
	assign, ok := s.cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 2 || !astq.Blank(assign.Lhs[0]) {
		return nil
	}
	return s.assignError(assign, check)
}

// procPIDPath reports whether e is a path /proc/<pid> built from a PID and
// returns the PID expression when it can name it. inline is false when the
// path comes from a local variable.
func procPIDPath(s *site, e ast.Expr) (pid ast.Expr, inline, ok bool) {
	info := s.info()
	e = ast.Unparen(e)
	if id, isIdent := e.(*ast.Ident); isIdent {
		def := astq.LocalDefinition(info, s.cur, id)
		if def == nil {
			return nil, false, false
		}
		pid, ok := procPIDPathExpr(info, def)
		return pid, false, ok
	}
	pid, ok = procPIDPathExpr(info, e)
	return pid, true, ok
}

var procFormat = regexp.MustCompile(`^/proc/%[dvs]/?$`)

func procPIDPathExpr(info *types.Info, e ast.Expr) (ast.Expr, bool) {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.BinaryExpr:
		parts := astq.FlattenConcat(e)
		var consts []string
		var dynamic []ast.Expr
		for _, p := range parts {
			if v, ok := astq.StringConst(info, p); ok {
				if len(dynamic) == 0 {
					consts = append(consts, v)
				} else if v != "/" {
					return nil, false // /proc/<pid>/more: reading, not probing
				}
				continue
			}
			dynamic = append(dynamic, p)
		}
		if len(dynamic) != 1 || strings.Join(consts, "") != "/proc/" {
			return nil, false
		}
		pid, ok := pidOfString(info, dynamic[0])
		return pid, ok
	case *ast.CallExpr:
		fn := calls.Callee(info, e)
		switch {
		case calls.IsPkgFunc(fn, "fmt", "Sprintf") && len(e.Args) == 2:
			format, ok := astq.StringConst(info, e.Args[0])
			if !ok || !procFormat.MatchString(format) {
				return nil, false
			}
			if strings.Contains(format, "%s") {
				pid, ok := pidOfString(info, e.Args[1])
				return pid, ok
			}
			if astq.IsInteger(info, e.Args[1], false) {
				return e.Args[1], true
			}
		case (calls.IsPkgFunc(fn, "path/filepath", "Join") || calls.IsPkgFunc(fn, "path", "Join")) && len(e.Args) == 2:
			if dir, ok := astq.StringConst(info, e.Args[0]); ok && (dir == "/proc" || dir == "/proc/") {
				pid, ok := pidOfString(info, e.Args[1])
				return pid, ok
			}
		}
	}
	return nil, false
}

// pidOfString reports whether the string expression e is a PID: a
// conversion of an integer (strconv.Itoa, FormatInt, fmt.Sprint) or a
// string variable whose name says pid. It returns the integer when known.
func pidOfString(info *types.Info, e ast.Expr) (ast.Expr, bool) {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) >= 1 {
		fn := calls.Callee(info, call)
		switch {
		case calls.IsPkgFunc(fn, "strconv", "Itoa"), calls.IsPkgFunc(fn, "fmt", "Sprint"):
			if astq.IsInteger(info, call.Args[0], false) {
				return call.Args[0], true
			}
		case calls.IsPkgFunc(fn, "strconv", "FormatInt", "FormatUint"):
			arg := astq.Unconvert(info, call.Args[0])
			if astq.IsInteger(info, arg, false) {
				return arg, true
			}
		}
		return nil, false
	}
	if id, ok := e.(*ast.Ident); ok && strings.Contains(strings.ToLower(id.Name), "pid") {
		return nil, true
	}
	return nil, false
}
