package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

// PL007 signal-unverified-pid: a real signal sent to a PID read from
// storage with nothing that checks it still names the process that wrote
// it. The PID's flow is in storedpid.go.

var signalStaleRule = Rule{
	ID:      "PL007",
	Name:    "signal-unverified-pid",
	Title:   "a signal sent to a PID read from storage, unverified",
	Summary: "a real signal (`syscall.Kill`, `Process.Signal`/`Kill`) sent to a PID read from a PID or state file, with no check that it still names the process that wrote it",
	Text: `A PID file, a JSON state file or any record on disk names a process only
while that process lives. After a crash, a reboot or plain PID reuse the
number belongs to someone else, and SIGTERM or SIGKILL sent to it stops an
unrelated process (on Windows, Process.Kill terminates it). A file holding 0
or -1 is worse: kill(0, sig) signals the caller's own process group and
kill(-1, sig) every process it may signal; through os.FindProcess any other
negative number signals a whole process group. The rule follows the PID
from os.ReadFile, os.Open with bufio or fmt.Fscan, and JSON, YAML or gob
decoding, through variables, struct fields, parameters and helpers (across
packages, by analysis facts) to syscall.Kill, unix.Kill, Process.Signal or
Process.Kill with a signal other than 0. Not reported: code that checks the
process's identity (its start or creation time, command line or executable,
a pidfd, safeprobe.Lookup and Identity.Probe) or that the owner still holds
its file lock; PIDs of children the code started; its own PID; PIDs the
kernel lists now (/proc scans, cgroup.procs). os.FindProcess is no check: it
opens whoever has the number now. A PID read from a safeprobe lock file is
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
	pkg: (*runner).signalStale,
}

// signalStale reports PL007 in the package.
func (r *runner) signalStale(rule string) {
	p := r.pidFlow()
	for _, d := range p.decls {
		if p.summary[d.fn].verifies {
			continue
		}
		for c := range d.cur.Preorder((*ast.CallExpr)(nil)) {
			s := p.sink(c.Node().(*ast.CallExpr))
			if s == nil {
				continue
			}
			if o := p.origin(d.fn, s.pid); o != nil {
				p.reportStale(rule, d, c, s, o)
			}
		}
	}
}

func (p *pidFlow) reportStale(rule string, d funcDecl, cur inspector.Cursor, s *pidSink, o *pidOrigin) {
	if o.readIn != nil && o.readIn != d.fn && p.summary[o.readIn].verifies {
		return
	}
	fs := p.r.fileOf(s.call.Pos())
	if fs == nil {
		return
	}
	os := guardedOS(p.info, cur, fs.os)
	if os == 0 {
		return
	}
	checked := o.checked || s.checked || p.checkedIn(d.cur, o)
	if !checked && o.readIn != nil && o.readIn != d.fn {
		if rd, ok := p.declOf(o.readIn); ok {
			checked = p.checkedIn(rd.cur, o)
		}
	}
	where := os
	if !s.process && !s.viaFact {
		where &= goos.Unix // kill(2)
	}
	sig := "a kill"
	if s.sig != nil {
		sig = p.r.source(fs, s.sig)
	}
	const safe = "verify it with safeprobe.Lookup and Identity.Probe, or hold a safeprobe lock and use safeprobe.SignalOwner"
	var msg string
	switch {
	case !checked && !s.process:
		msg = fmt.Sprintf("%s sends %s to a PID read from %s that is never checked to be > 0: a file holding 0 signals the caller's own process group, -1 every process it may signal (on %s), and any other number may by now be an unrelated process; %s",
			s.what, sig, o.source, goos.Describe(where), safe)
	case !checked:
		msg = fmt.Sprintf("%s sends %s to a PID read from %s that is never checked to be > 0: a negative number signals a whole process group, and any other may by now be an unrelated process; %s",
			s.what, sig, o.source, safe)
	default:
		msg = fmt.Sprintf("%s sends %s to a PID read from %s without checking that it still names the process that wrote it: after a crash, a reboot or PID reuse it is an unrelated process (on %s); %s",
			s.what, sig, o.source, goos.Describe(where), safe)
	}
	f := &finding{rule: rule, pos: s.call.Pos(), end: s.call.End(), msg: msg}
	f.fix = p.signalOwnerFix(d, fs, s, o)
	p.r.add(fs, f)
}

// signalOwnerFix replaces the signal with safeprobe.SignalOwner(path, sig)
// when the PID was read, in the same function, from a file the package uses
// as a safeprobe lock, and the edit leaves code that builds.
func (p *pidFlow) signalOwnerFix(d funcDecl, fs *fileState, s *pidSink, o *pidOrigin) *fixPlan {
	if s.viaFact || o.readIn != d.fn || o.path == nil {
		return nil
	}
	if !o.inspect {
		k := pathKey(p.info, o.path)
		if k == nil || !p.locked[k] {
			return nil
		}
	}
	if !p.inScopeAt(o.path, s.call.Pos()) || p.leavesUnused(d, s.call) {
		return nil
	}
	sp := p.r.safeprobeName(fs, s.call.Pos())
	if sp == "" {
		return nil
	}
	path := p.r.source(fs, o.path)
	if s.sig == nil {
		if os := p.r.pkgNameIn(fs, "os"); os != "" {
			return (&site{r: p.r, fs: fs, call: s.call}).replace(s.call, fmt.Sprintf("%s.SignalOwner(%s, %s.Kill)", sp, path, os), s.call)
		}
		return nil
	}
	// Keep the signal argument as written: only the call and the PID go.
	// (A node spanning them, for the import clean-up.)
	removed := &ast.BinaryExpr{X: s.call.Fun, OpPos: s.call.Lparen, Op: token.ADD, Y: s.pid}
	if usesDotImport(p.info, fs.file, removed) {
		return nil
	}
	return &fixPlan{pos: s.call.Pos(), end: s.sig.Pos(), newText: fmt.Sprintf("%s.SignalOwner(%s, ", sp, path), removed: removed}
}

// inScopeAt reports whether every name in e denotes the same object at pos.
func (p *pidFlow) inScopeAt(e ast.Expr, pos token.Pos) bool {
	ok := true
	scope := p.r.pass.Pkg.Scope().Innermost(pos)
	ast.Inspect(e, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || !ok {
			return ok
		}
		obj := p.info.Uses[id]
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
func (p *pidFlow) leavesUnused(d funcDecl, call *ast.CallExpr) bool {
	inCall := map[*types.Var]bool{}
	ast.Inspect(call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := p.info.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != p.r.pass.Pkg.Scope() {
				inCall[v] = true
			}
		}
		return true
	})
	for c := range d.cur.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		if id.Pos() >= call.Pos() && id.Pos() < call.End() {
			continue
		}
		if c.ParentEdgeKind() == edge.AssignStmt_Lhs {
			continue // assigned, not read
		}
		if v, ok := p.info.Uses[id].(*types.Var); ok && inCall[v] {
			delete(inCall, v)
		}
	}
	return len(inCall) > 0
}

// pkgNameIn returns the name under which fs imports path, or "".
func (r *runner) pkgNameIn(fs *fileState, path string) string {
	for _, spec := range fs.file.Imports {
		if importPath(spec) == path {
			if pn := r.pass.TypesInfo.PkgNameOf(spec); pn != nil && pn.Name() != "_" && pn.Name() != "." {
				return pn.Name()
			}
		}
	}
	return ""
}
