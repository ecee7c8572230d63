package pidflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// A Summary says what a function, or any function of the package it
// calls, does to processes and files.
type Summary struct {
	Verifies   bool // checks a process's identity (start time, cmdline, pidfd, lock)
	Locks      bool // takes a kernel file lock
	Removes    bool // removes or replaces a file
	BlindProbe bool // asks whether a PID is alive, not whose it is
	OwnPID     bool // writes its own PID
	Signals    bool // sends a real signal
}

func (s *Summary) or(o *Summary) bool {
	n := Summary{s.Verifies || o.Verifies, s.Locks || o.Locks, s.Removes || o.Removes,
		s.BlindProbe || o.BlindProbe, s.OwnPID || o.OwnPID, s.Signals || o.Signals}
	changed := n != *s
	*s = n
	return changed
}

// summaries are the package's functions' summaries, and what computing
// them learns on the way.
type summaries struct {
	pass *analysis.Pass
	info *types.Info
	cls  *calls.Classifier
	of   map[*types.Func]*Summary
	// locked holds the keys (PathKey) of paths passed to safeprobe's
	// lock API; starts the functions that start a process themselves
	// (not through a callee); ownPIDVars the variables that hold the
	// own PID.
	locked     map[any]bool
	starts     map[*types.Func]bool
	ownPIDVars map[*types.Var]bool
}

func newSummaries(pass *analysis.Pass, cls *calls.Classifier) *summaries {
	return &summaries{pass: pass, info: pass.TypesInfo, cls: cls, of: map[*types.Func]*Summary{},
		locked: map[any]bool{}, starts: map[*types.Func]bool{}, ownPIDVars: map[*types.Var]bool{}}
}

// summarize summarizes each function, then closes the summaries over
// the package's own calls.
func summarize(pass *analysis.Pass, cls *calls.Classifier, fns []Func) *summaries {
	m := newSummaries(pass, cls)
	calls := map[*types.Func][]*types.Func{}
	for _, d := range fns {
		for c := range d.Cur.Preorder((*ast.AssignStmt)(nil)) {
			a := c.Node().(*ast.AssignStmt)
			if len(a.Lhs) == len(a.Rhs) {
				for i, lhs := range a.Lhs {
					if id, ok := lhs.(*ast.Ident); ok && m.mentionsOwnPID(a.Rhs[i:i+1]) {
						if v, ok := m.info.ObjectOf(id).(*types.Var); ok {
							m.ownPIDVars[v] = true // self, _ := safeprobe.Lookup(os.Getpid())
						}
					}
				}
			}
		}
	}
	for _, d := range fns {
		s := new(Summary)
		m.of[d.Fn] = s
		for c := range d.Cur.Preorder((*ast.CallExpr)(nil), (*ast.BasicLit)(nil), (*ast.SelectorExpr)(nil)) {
			switch n := c.Node().(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && verifiesByText(n.Value) {
					s.Verifies = true
				}
				continue
			case *ast.SelectorExpr:
				if m.isLockState(n) {
					s.Verifies = true // the owner's lock is still held
				}
				continue
			}
			k := cls.Of(c.Node().(*ast.CallExpr))
			if k.Fn == nil {
				continue
			}
			if k.Fn.Pkg() == pass.Pkg {
				calls[d.Fn] = append(calls[d.Fn], k.Fn.Origin())
			}
			if startsProcess(k) && !runsSignalCommand(cls, c, k) {
				m.starts[d.Fn] = true
			}
			m.call(s, k)
		}
	}
	for changed := true; changed; {
		changed = false
		for fn, callees := range calls {
			for _, c := range callees {
				if o := m.of[c]; o != nil && m.of[fn].or(o) {
					changed = true
				}
			}
		}
	}
	return m
}

// node adds to s the summary of the code in n, with the package's
// functions it calls; without deferred calls if noDefer.
func (m *summaries) node(s *Summary, n ast.Node, noDefer bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			return !noDefer
		case *ast.BasicLit:
			if n.Kind == token.STRING && verifiesByText(n.Value) {
				s.Verifies = true
			}
		case *ast.CallExpr:
			if k := m.cls.Of(n); k.Fn != nil {
				m.call(s, k)
				if o := m.of[k.Fn.Origin()]; o != nil {
					s.or(o)
				}
			}
		}
		return true
	})
}

// isLockState reports whether sel reads safeprobe.Status's Held or Stale:
// whether the lock's owner still holds it.
func (m *summaries) isLockState(sel *ast.SelectorExpr) bool {
	f, ok := m.info.Uses[sel.Sel].(*types.Var)
	return ok && f.IsField() && (f.Name() == "Held" || f.Name() == "Stale") && calls.IsSafeprobe(f.Pkg(), m.cls.Safeprobe)
}

// verifiesByText reports whether a string literal names what identifies a
// process: /proc/<pid>/cmdline, exe, comm or stat, or ps's start-time and
// command columns.
func verifiesByText(lit string) bool {
	for _, s := range []string{"cmdline", "/exe", "/comm", "/stat", "lstart", "comm=", "args=", "etimes"} {
		if strings.Contains(lit, s) {
			return true
		}
	}
	return false
}

// identityNames are parts of function names that check whose a process is.
var identityNames = []string{"starttime", "createtime", "cmdline", "commandline", "identity", "verify",
	"sameprocess", "processname", "procname", "exepath", "executable", "readlink", "getprocesstimes", "pidfd",
	"imagename"}

// call adds what the call k does to s.
func (m *summaries) call(s *Summary, k calls.Call) {
	fn := k.Fn
	name := strings.ToLower(fn.Name())
	recv := calls.RecvTypeName(fn)
	if isWrite(k) && m.mentionsOwnPID(k.Expr.Args) {
		s.OwnPID = true // fmt.Fprintf(f, "%d", os.Getpid())
	}
	switch r := k.Role; {
	case r&calls.Safeprobe != 0:
		switch {
		case r&calls.SafeVerify != 0:
			s.Verifies = true
		case r&calls.SafeLock != 0:
			s.Locks, s.Verifies = true, true
			m.lockPath(k)
		case r&(calls.SafeAlive|calls.SafeCheck|calls.SafeProbe) != 0:
			s.BlindProbe = true
		case r&calls.SafeInspect != 0:
			m.lockPath(k)
		}
	case r&calls.LockFile != 0 ||
		name == "lockfileex" || name == "trylock" || name == "trylockcontext" || name == "tryrlock" ||
		fn.Pkg() != nil && (strings.Contains(fn.Pkg().Path(), "flock") || strings.Contains(fn.Pkg().Path(), "lockedfile") || strings.Contains(fn.Pkg().Path(), "filelock")):
		s.Locks, s.Verifies = true, true
	case r&calls.RemoveFile != 0:
		s.Removes = true
	case r&(calls.Kill|calls.ProcessSignal) != 0:
		if k.Probe() {
			s.BlindProbe = true
		} else {
			s.Signals = true
		}
	case r&calls.ProcessKill != 0:
		s.Signals = true
	case r&calls.FindProcess != 0:
		s.BlindProbe = true
	case recv == "Process" && (fn.Name() == "Exe" || fn.Name() == "Name" || fn.Name() == "Cmdline" || fn.Name() == "CmdlineSlice"):
		s.Verifies = true // gopsutil's Process
	case fn.Pkg() != nil && strings.HasSuffix(fn.Pkg().Path(), "gopsutil/v4/process") || fn.Pkg() != nil && strings.Contains(fn.Pkg().Path(), "gopsutil") && name == "pidexists":
		s.BlindProbe = true
	case r&calls.Wrapped != 0:
		s.BlindProbe = true
	default:
		for _, n := range identityNames {
			if strings.Contains(name, n) {
				s.Verifies = true
				return
			}
		}
		if fn.Pkg() != m.pass.Pkg && calls.LivenessPolarity(fn.Name()) != 0 && calls.TakesInt(fn) {
			s.BlindProbe = true // procutil.IsRunning(pid)
		}
	}
}

// lockPath notes the path a safeprobe lock call names.
func (m *summaries) lockPath(k calls.Call) {
	if len(k.Expr.Args) > 0 {
		if key := PathKey(m.info, k.Expr.Args[0]); key != nil {
			m.locked[key] = true
		}
	}
}

// isWrite reports whether the call writes its arguments to a file or
// stream.
func isWrite(k calls.Call) bool {
	if k.Role&calls.WriteFile != 0 {
		return true
	}
	n := k.Fn.Name()
	return k.Fn.Signature().Recv() != nil && (n == "Write" || n == "WriteString" || n == "WriteAt" || n == "Encode")
}

// mentionsOwnPID reports whether the arguments hold os.Getpid(), in place
// or through a local variable given it (pid := os.Getpid()).
func (m *summaries) mentionsOwnPID(args []ast.Expr) bool {
	found := false
	for _, a := range args {
		ast.Inspect(a, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				found = found || calls.RolesOf(calls.Callee(m.info, n), m.cls.Safeprobe)&calls.Getpid != 0
			case *ast.Ident:
				if v, ok := m.info.Uses[n].(*types.Var); ok && m.ownPIDVars[v] {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// startsProcess reports whether the call starts a process: exec.Cmd's
// Start, Run and Output, os.StartProcess, syscall.ForkExec, or a
// runtime's Exec/Create/Start method.
func startsProcess(k calls.Call) bool {
	switch k.Fn.Name() {
	case "Start", "Run", "Output", "CombinedOutput", "StartProcess", "ForkExec", "Exec", "Create":
		return k.Fn.Signature().Recv() != nil || k.Role&calls.StartProcess != 0
	}
	return false
}

// PathKey names a file path expression so that two mentions of the same
// path match: a constant's value, a variable's or field's object, or the
// function that computes it.
func PathKey(info *types.Info, e ast.Expr) any {
	e = ast.Unparen(e)
	if v, ok := astq.StringConst(info, e); ok {
		return v
	}
	switch e := e.(type) {
	case *ast.Ident:
		return info.Uses[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	case *ast.CallExpr:
		if fn := calls.Callee(info, e); fn != nil && len(e.Args) == 0 {
			return fn
		}
	}
	return nil
}
