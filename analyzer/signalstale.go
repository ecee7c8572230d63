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

var signalStaleRule = Rule{
	ID:      "PL007",
	Name:    "signal-unverified-pid",
	Title:   "a signal sent to a PID read from storage, unverified",
	Summary: "a real signal (`syscall.Kill`, `Process.Signal`/`Kill`, `kill`/`pkill -F`/`taskkill` run by `exec.Command`) sent to a PID read from a PID or state file, with no check that it still names the process that wrote it",
	Text: `A PID file, a JSON state file or any record on disk names a process only
while that process lives. After a crash, a reboot or plain PID reuse the
number belongs to someone else, and SIGTERM or SIGKILL sent to it stops an
unrelated process (on Windows, Process.Kill terminates it). A file holding 0
or -1 is worse: kill(0, sig) signals the caller's own process group and
kill(-1, sig) every process it may signal; through os.FindProcess any other
negative number signals a whole process group. Nor is "pid > 0" enough:
syscall.Kill and unix.Kill take an int but kill(2) a 32-bit pid_t, so a PID
parsed with strconv.Atoi or ParseInt(s, 10, 64) and no upper bound lets
4294967295 through, and the kernel reads it as -1; safeprobe.ParsePID and
ValidatePID refuse anything outside 1..2147483647. The rule follows the PID
on the package's SSA form from where it is read - os.ReadFile, os.Open
with bufio, io or fmt.Fscan, JSON, YAML, TOML or gob decoding into struct
fields, maps and slices, a database row's Scan, an environment variable
named for a PID - through variables, copies, conversions, struct fields,
closures, channels, method values and helpers (across packages, by
analysis facts), to syscall.Kill, unix.Kill, Process.Signal or
Process.Kill with a signal other than 0, gopsutil's Terminate, Kill and
SendSignal, TerminateProcess, and the commands that signal a PID:
exec.Command("kill", "-9", pid) and pkill -F pidfile on Unix, taskkill
/PID pid on Windows. The message names where the PID was read. Not
reported: a PID whose process's start time is compared with a recorded one
(/proc/PID/stat, gopsutil's CreateTime, GetProcessTimes, safeprobe.Lookup
and Identity.Probe), or whose PID file's kernel lock is tested where it is
read (flock, fcntl, LockFileEx, safeprobe.Inspect's Held); PIDs of children
the code started; its own PID; PIDs the kernel lists now (/proc scans,
cgroup.procs). A comparison of the process's name, executable or command
line with the expected program also counts, as it stops the usual accident;
-strict reports it all the same, as a name is not an identity. Reading
/proc/PID/comm without comparing it, os.FindProcess, Signal(0), ps -p and a
lock on another file are no check. A PID read from a safeprobe lock file is
fixed to safeprobe.SignalOwner, which signals only the verified holder.`,
	Bad: `data, err := os.ReadFile(pidFile)
if err != nil {
	return err
}
pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
if err != nil {
	return err
}
return syscall.Kill(pid, syscall.SIGTERM) // whoever has the number now`,
	Good: `// The daemon holds lock, err := safeprobe.TryAcquire(pidFile, nil);
// stop signals the holder only once its identity is checked.
return safeprobe.SignalOwner(pidFile, syscall.SIGTERM)`,
	OS:  "every OS",
	Fix: true,
	pkg: checkSignalStale,
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
