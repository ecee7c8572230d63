package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
)

// This file follows PIDs read from persistent storage (PL007, PL008): a
// flow-insensitive taint over the package's variables, struct fields and
// functions, and a summary of what each function does to a process.

// storedPIDFact marks a function that returns a PID read from storage, or a
// record (a struct with a PID field, an *os.Process) made from one, without
// checking that it still names the process that wrote it.
type storedPIDFact struct {
	Result  int    // the result that carries it
	Checked bool   // the PID was compared with 0 or 1 before it was returned
	Source  string // where it was read, for messages
}

func (*storedPIDFact) AFact() {}

func (f *storedPIDFact) String() string {
	return "stored pid(result=" + itoa(f.Result) + ", checked=" + btoa(f.Checked) + ")"
}

// signalsPIDFact marks a function that sends a real signal to the PID its
// parameter holds, without verifying that it is the process meant.
type signalsPIDFact struct {
	PIDParam int
	SigParam int  // the parameter that becomes the signal; -1: a fixed, real one
	Checked  bool // the function compares the PID with 0 or 1 first
}

func (*signalsPIDFact) AFact() {}

func (f *signalsPIDFact) String() string {
	return "signals pid(pid=" + itoa(f.PIDParam) + ", sig=" + itoa(f.SigParam) + ", checked=" + btoa(f.Checked) + ")"
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func btoa(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// A pidOrigin is one read of a PID (or of data holding one) from storage.
type pidOrigin struct {
	source  string
	checked bool          // compared with 0 or 1, or parsed by safeprobe.ParsePID
	readIn  *types.Func   // the function that read it, if in this package
	read    *ast.CallExpr // the read, when in this package
	path    ast.Expr      // the file's path, when read in this package
	inspect bool          // read by safeprobe.Inspect: the file is a safeprobe lock
}

// A procSummary says what a function, or any function of the package it
// calls, does to processes and files.
type procSummary struct {
	verifies   bool // checks a process's identity (start time, cmdline, pidfd, lock)
	locks      bool // takes a kernel file lock
	removes    bool // removes or replaces a file
	blindProbe bool // asks whether a PID is alive, not whose it is
	ownPID     bool // asks for its own PID
	signals    bool // sends a real signal
}

func (s *procSummary) or(o *procSummary) bool {
	n := procSummary{s.verifies || o.verifies, s.locks || o.locks, s.removes || o.removes,
		s.blindProbe || o.blindProbe, s.ownPID || o.ownPID, s.signals || o.signals}
	changed := n != *s
	*s = n
	return changed
}

// pidFlow is the taint of one package.
type pidFlow struct {
	r         *runner
	info      *types.Info
	decls     []funcDecl
	declIndex map[*types.Func]int
	vars      map[*types.Var]*pidOrigin
	fields    map[*types.Var]*pidOrigin
	mixed     map[*types.Var]bool // fields also given values not from storage
	stored    map[*types.Func]*storedPIDFact
	signals   map[*types.Func]*signalsPIDFact
	summary   map[*types.Func]*procSummary
	locked    map[any]bool // keys of paths passed to safeprobe's lock API
	// starts: functions that start a process themselves (not through
	// a callee); ownPIDVars: variables that hold the own PID.
	starts     map[*types.Func]bool
	ownPIDVars map[*types.Var]bool
	// active: the package reads files, signals, or calls a function
	// with a fact; else there is nothing to follow.
	active bool
}

type funcDecl struct {
	fn  *types.Func
	cur inspector.Cursor
}

// flowPackages are the imports without which no PID can be read from
// storage or signalled.
var flowPackages = []string{"os", "io/ioutil", syscallPath, unixPath}

// pidFlow computes the package's taint once, for PL007 and PL008.
func (r *runner) pidFlow() *pidFlow {
	if r.flow != nil {
		return r.flow
	}
	p := &pidFlow{
		r: r, info: r.pass.TypesInfo,
		vars: map[*types.Var]*pidOrigin{}, fields: map[*types.Var]*pidOrigin{}, mixed: map[*types.Var]bool{},
		stored: map[*types.Func]*storedPIDFact{}, signals: map[*types.Func]*signalsPIDFact{},
		summary: map[*types.Func]*procSummary{}, locked: map[any]bool{}, declIndex: map[*types.Func]int{},
		starts: map[*types.Func]bool{}, ownPIDVars: map[*types.Var]bool{},
	}
	r.flow = p
	// Follow PIDs only where one can reach a signal or a PID file of the
	// package's own, or leave through an exported function's result.
	var source, sink, own bool
	for cur := range r.in.Root().Preorder((*ast.CallExpr)(nil)) {
		if fn := callee(p.info, cur.Node().(*ast.CallExpr)); fn != nil {
			s, k, o := p.interesting(fn)
			source, sink, own = source || s, sink || k, own || o
		}
	}
	exportsRecord := false
	for cur := range r.in.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if fn, ok := p.info.Defs[fd.Name].(*types.Func); ok && fd.Body != nil {
			p.declIndex[fn] = len(p.decls)
			p.decls = append(p.decls, funcDecl{fn, cur})
			exportsRecord = exportsRecord || fn.Exported() && returnsRecord(fn)
		}
	}
	p.active = sink || own || source && exportsRecord
	if !p.active {
		p.decls = nil
		return p
	}
	p.summarize()
	// Taint to a fixed point: a round adds variables, fields and facts; a
	// few rounds cover helpers of helpers.
	for range 6 {
		if !p.round() {
			break
		}
	}
	// Only exported functions are called from other packages.
	exported := false
	for fn, f := range p.stored {
		if fn.Exported() {
			r.pass.ExportObjectFact(fn, f)
			exported = true
		}
	}
	for fn, f := range p.signals {
		if fn.Exported() {
			r.pass.ExportObjectFact(fn, f)
			exported = true
		}
	}
	if exported {
		r.pass.ExportPackageFact(new(hasWrappersFact))
	}
	return p
}

// interesting says whether a call may read a PID from storage (source),
// signal one (sink), or ask for the own PID (own).
func (p *pidFlow) interesting(fn *types.Func) (source, sink, own bool) {
	foreign := fn.Pkg() != p.r.pass.Pkg
	source = isPkgFunc(fn, "os", "ReadFile", "Open", "OpenFile") || isPkgFunc(fn, "io/ioutil", "ReadFile") ||
		p.isSafeprobe(fn) || foreign && p.storedFact(fn) != nil
	sink = isPkgFunc(fn, syscallPath, "Kill") || isPkgFunc(fn, unixPath, "Kill") ||
		isProcessMethod(fn, "Signal") || isProcessMethod(fn, "Kill") || foreign && p.signalsFact(fn) != nil
	own = isPkgFunc(fn, "os", "Getpid") || isPkgFunc(fn, syscallPath, "Getpid") || isPkgFunc(fn, unixPath, "Getpid")
	return source, sink, own
}

// declOf returns the declaration of fn in this package.
func (p *pidFlow) declOf(fn *types.Func) (funcDecl, bool) {
	i, ok := p.declIndex[fn]
	if !ok {
		return funcDecl{}, false
	}
	return p.decls[i], true
}

// summarize fills p.summary and p.locked, then closes the summaries over
// the package's own calls.
func (p *pidFlow) summarize() {
	calls := map[*types.Func][]*types.Func{}
	for _, d := range p.decls {
		for c := range d.cur.Preorder((*ast.AssignStmt)(nil)) {
			a := c.Node().(*ast.AssignStmt)
			if len(a.Lhs) == len(a.Rhs) {
				for i, lhs := range a.Lhs {
					if id, ok := lhs.(*ast.Ident); ok && p.mentionsOwnPID(a.Rhs[i:i+1]) {
						if v, ok := p.info.ObjectOf(id).(*types.Var); ok {
							p.ownPIDVars[v] = true // self, _ := safeprobe.Lookup(os.Getpid())
						}
					}
				}
			}
		}
	}
	for _, d := range p.decls {
		s := new(procSummary)
		p.summary[d.fn] = s
		for c := range d.cur.Preorder((*ast.CallExpr)(nil), (*ast.BasicLit)(nil), (*ast.SelectorExpr)(nil)) {
			switch n := c.Node().(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && verifiesByText(n.Value) {
					s.verifies = true
				}
				continue
			case *ast.SelectorExpr:
				if p.isLockState(n) {
					s.verifies = true // the owner's lock is still held
				}
				continue
			}
			call := c.Node().(*ast.CallExpr)
			fn := callee(p.info, call)
			if fn == nil {
				continue
			}
			if fn.Pkg() == p.r.pass.Pkg {
				calls[d.fn] = append(calls[d.fn], fn.Origin())
			}
			if startsProcess(fn) {
				p.starts[d.fn] = true
			}
			p.classifyCall(s, call, fn)
		}
	}
	for changed := true; changed; {
		changed = false
		for fn, callees := range calls {
			for _, c := range callees {
				if o := p.summary[c]; o != nil && p.summary[fn].or(o) {
					changed = true
				}
			}
		}
	}
}

// isLockState reports whether sel reads safeprobe.Status's Held or Stale:
// whether the lock's owner still holds it.
func (p *pidFlow) isLockState(sel *ast.SelectorExpr) bool {
	f, ok := p.info.Uses[sel.Sel].(*types.Var)
	return ok && f.IsField() && (f.Name() == "Held" || f.Name() == "Stale") && f.Pkg() != nil &&
		(f.Pkg().Path() == p.r.cfg.safeprobe || f.Pkg().Name() == "safeprobe")
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

func (p *pidFlow) isSafeprobe(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	return fn.Pkg().Path() == p.r.cfg.safeprobe || fn.Pkg().Name() == "safeprobe"
}

func (p *pidFlow) classifyCall(s *procSummary, call *ast.CallExpr, fn *types.Func) {
	name := strings.ToLower(fn.Name())
	recv := recvTypeName(fn)
	if isWrite(fn) && p.mentionsOwnPID(call.Args) {
		s.ownPID = true // fmt.Fprintf(f, "%d", os.Getpid())
	}
	switch {
	case p.isSafeprobe(fn):
		switch fn.Name() {
		case "Lookup", "Self", "SignalOwner", "SignalOwnerWith", "Same":
			s.verifies = true
		case "Acquire", "TryAcquire", "NewLockDir":
			s.locks, s.verifies = true, true
			if len(call.Args) > 0 {
				if k := pathKey(p.info, call.Args[0]); k != nil {
					p.locked[k] = true
				}
			}
		case "Probe":
			if recv == "Identity" {
				s.verifies = true
			} else {
				s.blindProbe = true
			}
		case "Alive", "Check", "CheckProcess":
			s.blindProbe = true
		case "Inspect":
			if len(call.Args) > 0 {
				if k := pathKey(p.info, call.Args[0]); k != nil {
					p.locked[k] = true
				}
			}
		}
	case isPkgFunc(fn, syscallPath, "Flock", "FcntlFlock") || isPkgFunc(fn, unixPath, "Flock", "FcntlFlock") ||
		name == "lockfileex" || name == "trylock" || name == "trylockcontext" || name == "tryrlock" ||
		fn.Pkg() != nil && (strings.Contains(fn.Pkg().Path(), "flock") || strings.Contains(fn.Pkg().Path(), "lockedfile") || strings.Contains(fn.Pkg().Path(), "filelock")):
		s.locks, s.verifies = true, true
	case isPkgFunc(fn, "os", "Remove", "RemoveAll", "Rename") || isPkgFunc(fn, syscallPath, "Unlink") || isPkgFunc(fn, unixPath, "Unlink"):
		s.removes = true
	case isPkgFunc(fn, syscallPath, "Kill") || isPkgFunc(fn, unixPath, "Kill"):
		if len(call.Args) == 2 && isZero(p.info, call.Args[1]) {
			s.blindProbe = true
		} else {
			s.signals = true
		}
	case isProcessMethod(fn, "Signal"):
		if len(call.Args) == 1 && (isZero(p.info, call.Args[0]) || isNilSignal(p.info, call.Args[0])) {
			s.blindProbe = true
		} else {
			s.signals = true
		}
	case isProcessMethod(fn, "Kill"):
		s.signals = true
	case isPkgFunc(fn, "os", "FindProcess"):
		s.blindProbe = true
	case recv == "Process" && (fn.Name() == "Exe" || fn.Name() == "Name" || fn.Name() == "Cmdline" || fn.Name() == "CmdlineSlice"):
		s.verifies = true // gopsutil's Process
	case fn.Pkg() != nil && strings.HasSuffix(fn.Pkg().Path(), "gopsutil/v4/process") || fn.Pkg() != nil && strings.Contains(fn.Pkg().Path(), "gopsutil") && name == "pidexists":
		s.blindProbe = true
	case p.r.wrapperOf(fn) != nil:
		s.blindProbe = true
	default:
		for _, n := range identityNames {
			if strings.Contains(name, n) {
				s.verifies = true
				return
			}
		}
		if fn.Pkg() != p.r.pass.Pkg && livenessPolarity(fn.Name()) != 0 && takesInt(fn) {
			s.blindProbe = true // procutil.IsRunning(pid)
		}
	}
}

// isWrite reports whether fn writes its arguments to a file or stream.
func isWrite(fn *types.Func) bool {
	switch {
	case isPkgFunc(fn, "fmt", "Fprint", "Fprintf", "Fprintln"), isPkgFunc(fn, "os", "WriteFile"),
		isPkgFunc(fn, "io/ioutil", "WriteFile"), isPkgFunc(fn, "io", "WriteString"):
		return true
	}
	n := fn.Name()
	return fn.Signature().Recv() != nil && (n == "Write" || n == "WriteString" || n == "WriteAt" || n == "Encode")
}

// mentionsOwnPID reports whether the arguments hold os.Getpid(), in place
// or through a local variable given it (pid := os.Getpid()).
func (p *pidFlow) mentionsOwnPID(args []ast.Expr) bool {
	found := false
	for _, a := range args {
		ast.Inspect(a, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				fn := callee(p.info, n)
				found = found || isPkgFunc(fn, "os", "Getpid") || isPkgFunc(fn, syscallPath, "Getpid") || isPkgFunc(fn, unixPath, "Getpid")
			case *ast.Ident:
				if v, ok := p.info.Uses[n].(*types.Var); ok && p.ownPIDVars[v] {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// startsProcess reports whether fn starts a process: exec.Cmd's Start,
// Run and Output, os.StartProcess, syscall.ForkExec, or a runtime's
// Exec/Create/Start method.
func startsProcess(fn *types.Func) bool {
	switch fn.Name() {
	case "Start", "Run", "Output", "CombinedOutput", "StartProcess", "ForkExec", "Exec", "Create":
		return fn.Signature().Recv() != nil || isPkgFunc(fn, "os", "StartProcess") || isPkgFunc(fn, syscallPath, "ForkExec") || isPkgFunc(fn, unixPath, "ForkExec")
	}
	return false
}

// recvTypeName is the name of a method's receiver type, or "".
func recvTypeName(fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		return ""
	}
	t := recv.Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

func takesInt(fn *types.Func) bool {
	params := fn.Signature().Params()
	for i := range params.Len() {
		if b, ok := params.At(i).Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return true
		}
	}
	return false
}

// isNilSignal reports whether e is nil or os.Signal(nil).
func isNilSignal(info *types.Info, e ast.Expr) bool {
	return isNil(info, unconvert(info, e))
}

// pathKey names a file path expression so that two mentions of the same
// path match: a constant's value, a variable's or field's object, or the
// function that computes it.
func pathKey(info *types.Info, e ast.Expr) any {
	e = ast.Unparen(e)
	if v, ok := stringConst(info, e); ok {
		return v
	}
	switch e := e.(type) {
	case *ast.Ident:
		return info.Uses[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	case *ast.CallExpr:
		if fn := callee(info, e); fn != nil && len(e.Args) == 0 {
			return fn
		}
	}
	return nil
}

// round runs the taint over every function once, and reports whether it
// learnt anything.
func (p *pidFlow) round() bool {
	before := len(p.vars) + len(p.fields) + len(p.stored) + len(p.signals)
	// Whether a field also holds other values is decided anew each round,
	// from what is known to come from storage by then.
	clear(p.mixed)
	for _, d := range p.decls {
		p.taintFunc(d)
	}
	for _, d := range p.decls {
		p.exportFacts(d)
	}
	return len(p.vars)+len(p.fields)+len(p.stored)+len(p.signals) != before
}

func (p *pidFlow) taintFunc(d funcDecl) {
	for c := range d.cur.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.CallExpr)(nil), (*ast.CompositeLit)(nil), (*ast.RangeStmt)(nil)) {
		switch n := c.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					p.assign(n.Lhs[i], p.origin(d.fn, n.Rhs[i]), n.Rhs[i])
				}
			} else if len(n.Rhs) == 1 {
				o := p.origin(d.fn, n.Rhs[0])
				for i, lhs := range n.Lhs {
					if o != nil && p.carries(n.Rhs[0], i) {
						p.assign(lhs, o, nil)
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) == len(n.Names) {
				for i := range n.Names {
					p.define(n.Names[i], p.origin(d.fn, n.Values[i]))
				}
			} else if len(n.Values) == 1 {
				if o := p.origin(d.fn, n.Values[0]); o != nil {
					for i, name := range n.Names {
						if p.carries(n.Values[0], i) {
							p.define(name, o)
						}
					}
				}
			}
		case *ast.RangeStmt:
			// for _, line := range strings.Split(string(data), "\n")
			if o := p.origin(d.fn, n.X); o != nil && n.Value != nil {
				p.assign(n.Value, o, nil)
			}
		case *ast.CallExpr:
			p.fill(d.fn, n)
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := p.info.Uses[id].(*types.Var); ok && f.IsField() {
							p.setField(f, p.origin(d.fn, kv.Value), kv.Value)
						}
					}
				}
			}
		}
	}
}

// carries reports whether result i of the multi-value call e holds the
// data (not the error).
func (p *pidFlow) carries(e ast.Expr, i int) bool {
	t, ok := p.info.TypeOf(e).(*types.Tuple)
	if !ok || i >= t.Len() {
		return false
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if fn := callee(p.info, call); fn != nil {
			if f := p.storedFact(fn); f != nil {
				return f.Result == i
			}
		}
	}
	return !types.Identical(t.At(i).Type(), types.Universe.Lookup("error").Type())
}

func (p *pidFlow) define(id *ast.Ident, o *pidOrigin) {
	if v, ok := p.info.Defs[id].(*types.Var); ok && o != nil && p.vars[v] == nil {
		p.vars[v] = o
	}
}

// assign records lhs = a value of origin o (nil: not from storage). rhs is
// the value when it is known, to tell a zero reset from a live PID.
func (p *pidFlow) assign(lhs ast.Expr, o *pidOrigin, rhs ast.Expr) {
	switch l := ast.Unparen(lhs).(type) {
	case *ast.Ident:
		if v, ok := p.info.ObjectOf(l).(*types.Var); ok && o != nil && p.vars[v] == nil {
			p.vars[v] = o
		}
	case *ast.SelectorExpr:
		if f, ok := p.info.Uses[l.Sel].(*types.Var); ok && f.IsField() {
			p.setField(f, o, rhs)
		}
	}
}

// setField records a value given to a field. A field is a stored PID only
// if every value it is given (but zero) is one.
func (p *pidFlow) setField(f *types.Var, o *pidOrigin, rhs ast.Expr) {
	if !holdsPID(f.Type()) {
		return
	}
	switch {
	case o != nil:
		if p.fields[f] == nil {
			p.fields[f] = o
		}
	case rhs != nil && (isZero(p.info, rhs) || isNil(p.info, rhs)):
	default:
		p.mixed[f] = true
	}
}

// holdsPID reports whether a value of type t can be a PID or a process.
func holdsPID(t types.Type) bool {
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Info()&types.IsInteger != 0
	}
	return isProcessPtr(t)
}

func isProcessPtr(t types.Type) bool {
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := ptr.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Process" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "os"
}

// fieldOrigin is the origin of a struct field that holds stored PIDs only.
func (p *pidFlow) fieldOrigin(f *types.Var) *pidOrigin {
	if p.mixed[f] {
		return nil
	}
	return p.fields[f]
}

// decodePackages are the packages whose functions carry data from an
// argument to their results or to the variables they fill.
var decodePackages = map[string]bool{
	"strings": true, "bytes": true, "strconv": true, "bufio": true, "io": true, "io/ioutil": true,
	"encoding/json": true, "encoding/gob": true, "encoding/binary": true, "fmt": true,
	"gopkg.in/yaml.v2": true, "gopkg.in/yaml.v3": true, "sigs.k8s.io/yaml": true, "github.com/BurntSushi/toml": true,
}

// origin returns where the value of e was read from, or nil.
func (p *pidFlow) origin(in *types.Func, e ast.Expr) *pidOrigin {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := p.info.Uses[e].(*types.Var); ok {
			return p.vars[v]
		}
	case *ast.SelectorExpr:
		if f, ok := p.info.Uses[e.Sel].(*types.Var); ok && f.IsField() {
			if o := p.origin(in, e.X); o != nil {
				return o
			}
			return p.fieldOrigin(f)
		}
	case *ast.IndexExpr:
		return p.origin(in, e.X)
	case *ast.SliceExpr:
		return p.origin(in, e.X)
	case *ast.StarExpr:
		return p.origin(in, e.X)
	case *ast.UnaryExpr:
		if e.Op == token.SUB || e.Op == token.AND {
			return p.origin(in, e.X)
		}
	case *ast.CallExpr:
		return p.callOrigin(in, e)
	}
	return nil
}

func (p *pidFlow) callOrigin(in *types.Func, call *ast.CallExpr) *pidOrigin {
	if tv, ok := p.info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) == 1 {
			return p.origin(in, call.Args[0]) // int(pid), string(data)
		}
		return nil
	}
	fn := callee(p.info, call)
	if fn == nil {
		return nil
	}
	// A PID file read where a process is started is the child's (runc
	// --pid-file, a daemon's first start): its PID is not stale.
	fresh := p.starts[in]
	switch {
	case fresh && (isPkgFunc(fn, "os", "ReadFile", "Open", "OpenFile") || isPkgFunc(fn, "io/ioutil", "ReadFile") || p.storedFact(fn) != nil):
		return nil
	case isPkgFunc(fn, "os", "ReadFile", "Open", "OpenFile") || isPkgFunc(fn, "io/ioutil", "ReadFile"):
		if len(call.Args) == 0 || p.kernelPath(in, call.Args[0], 0) {
			return nil
		}
		return &pidOrigin{source: "a file", readIn: in, read: call, path: call.Args[0]}
	case p.isSafeprobe(fn) && fn.Name() == "Inspect" && len(call.Args) == 1:
		return &pidOrigin{source: "a lock file", checked: true, readIn: in, read: call, path: call.Args[0], inspect: true}
	case isPkgFunc(fn, "os", "FindProcess") && len(call.Args) == 1:
		return p.origin(in, call.Args[0])
	case p.isSafeprobe(fn) && fn.Name() == "ParsePID" && len(call.Args) == 1:
		if o := p.origin(in, call.Args[0]); o != nil {
			c := *o
			c.checked = true
			return &c
		}
		return nil
	}
	if f := p.storedFact(fn); f != nil {
		return &pidOrigin{source: f.Source, checked: f.Checked, readIn: in}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
		if o := p.origin(in, sel.X); o != nil {
			return o // scanner.Text(), reader.ReadString('\n')
		}
	}
	// fmt only fills variables (see fill): Sscanf's count is no PID.
	if fn.Pkg() != nil && decodePackages[fn.Pkg().Path()] && fn.Pkg().Path() != "fmt" {
		for _, a := range call.Args {
			if o := p.origin(in, a); o != nil {
				return o
			}
		}
	}
	return nil
}

// fill taints the variables a decoding call fills: json.Unmarshal(data,
// &v), dec.Decode(&v), fmt.Fscan(f, &pid), fmt.Sscanf(s, "%d", &pid).
func (p *pidFlow) fill(in *types.Func, call *ast.CallExpr) {
	fn := callee(p.info, call)
	if fn == nil {
		return
	}
	var o *pidOrigin
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
		o = p.origin(in, sel.X)
	}
	if o == nil && fn.Pkg() != nil && decodePackages[fn.Pkg().Path()] {
		for _, a := range call.Args {
			if _, addr := ast.Unparen(a).(*ast.UnaryExpr); !addr {
				if o = p.origin(in, a); o != nil {
					break
				}
			}
		}
	}
	if o == nil {
		return
	}
	for _, a := range call.Args {
		if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
			p.assign(u.X, o, nil)
		} else if _, ptr := p.info.TypeOf(a).(*types.Pointer); ptr && p.origin(in, a) == nil {
			p.assign(a, o, nil) // json.Unmarshal(data, rec) with rec := new(record)
		}
	}
}

// kernelPath reports whether a path names what the kernel lists now
// (/proc, cgroup.procs, /sys), not storage: by its strings and constants,
// the names it is built from (procRoot, hostProc(…), cgroupDir), and the
// one value a local variable in it is given.
func (p *pidFlow) kernelPath(in *types.Func, e ast.Expr, depth int) bool {
	kernel := func(s string) bool {
		return strings.Contains(s, "/proc") || strings.Contains(s, "cgroup") || strings.Contains(s, "/sys/")
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			found = found || n.Kind == token.STRING && kernel(n.Value)
		case *ast.Ident:
			name := strings.ToLower(n.Name)
			if (strings.Contains(name, "proc") || strings.Contains(name, "cgroup")) && !strings.Contains(name, "pid") {
				found = true
				break
			}
			switch obj := p.info.Uses[n].(type) {
			case *types.Const:
				found = found || kernel(obj.Val().String())
			case *types.Var:
				if d, ok := p.declOf(in); ok && depth < 3 {
					if def := localDefinition(p.info, d.cur, n); def != nil {
						found = found || p.kernelPath(in, def, depth+1)
					}
				}
			}
		}
		return !found
	})
	return found
}

func (p *pidFlow) storedFact(fn *types.Func) *storedPIDFact {
	return funcFact(p.r.pass, p.stored, fn)
}

func (p *pidFlow) signalsFact(fn *types.Func) *signalsPIDFact {
	return funcFact(p.r.pass, p.signals, fn)
}

// exportFacts finds whether the function returns a stored PID or signals
// its parameter, unverified.
func (p *pidFlow) exportFacts(d funcDecl) {
	if p.summary[d.fn].verifies {
		return
	}
	sig := d.fn.Signature()
	if p.stored[d.fn] == nil && returnsRecord(d.fn) {
		for c := range d.cur.Preorder((*ast.ReturnStmt)(nil)) {
			if fd, ok := enclosingDecl(c); !ok || fd != d.cur.Node() {
				continue
			}
			ret := c.Node().(*ast.ReturnStmt)
			for i := range sig.Results().Len() {
				t := sig.Results().At(i).Type()
				if !holdsRecord(t) {
					continue
				}
				var o *pidOrigin
				switch {
				case len(ret.Results) == sig.Results().Len():
					if holdsPID(t) && !isProcessPtr(t) && !namesPID(d.fn.Name()) && !namesPID(sig.Results().At(i).Name()) && !namesPID(types.ExprString(ret.Results[i])) {
						continue // an integer that is not said to be a PID
					}
					o = p.origin(d.fn, ret.Results[i])
				case len(ret.Results) == 1 && p.carries(ret.Results[0], i):
					o = p.origin(d.fn, ret.Results[0]) // return strconv.Atoi(…)
				}
				if o != nil {
					p.stored[d.fn] = &storedPIDFact{Result: i, Checked: o.checked || p.checkedIn(d.cur, o), Source: o.source}
				}
			}
		}
	}
	if p.signals[d.fn] == nil {
		for c := range d.cur.Preorder((*ast.CallExpr)(nil)) {
			s := p.sink(c.Node().(*ast.CallExpr))
			if s == nil {
				continue
			}
			pidExpr := s.pid
			if s.process {
				if arg := findProcessArg(p.info, c, s.call); arg != nil {
					pidExpr = arg // p, _ := os.FindProcess(pid); p.Signal(sig)
				}
			}
			pid := paramOf(p.info, sig, pidExpr)
			if pid < 0 {
				continue
			}
			sigParam := -1
			if s.sig != nil {
				if _, ok := intConst(p.info, s.sig); !ok && !isPkgObj(p.info, s.sig, "os", "Kill", "Interrupt") {
					if sigParam = paramOf(p.info, sig, s.sig); sigParam < 0 {
						continue
					}
				}
			}
			p.signals[d.fn] = &signalsPIDFact{PIDParam: pid, SigParam: sigParam, Checked: s.checked || p.comparesParam(d.cur, sig.Params().At(pid))}
			break
		}
	}
}

// returnsRecord reports whether fn may return a stored PID: an integer
// (said to be a PID where it is returned), a struct with a PID field, an
// *os.Process.
func returnsRecord(fn *types.Func) bool {
	res := fn.Signature().Results()
	for i := range res.Len() {
		if holdsRecord(res.At(i).Type()) {
			return true
		}
	}
	return false
}

func namesPID(name string) bool { return strings.Contains(strings.ToLower(name), "pid") }

func holdsRecord(t types.Type) bool {
	return holdsPID(t) || hasPIDField(t)
}

// hasPIDField reports whether t is a struct, or a pointer to one, with an
// integer field whose name speaks of a PID.
func hasPIDField(t types.Type) bool {
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if namesPID(f.Name()) && holdsPID(f.Type()) {
			return true
		}
	}
	return false
}

// paramOf returns the index of the parameter e is (through conversions and
// a minus sign), or -1.
func paramOf(info *types.Info, sig *types.Signature, e ast.Expr) int {
	if u, ok := unconvert(info, e).(*ast.UnaryExpr); ok && u.Op == token.SUB {
		e = u.X // a process group
	}
	return paramIndex(info, sig, e)
}

// A pidSink is a real signal sent to a PID.
type pidSink struct {
	call    *ast.CallExpr
	pid     ast.Expr // the PID, or the *os.Process signalled
	sig     ast.Expr // nil for Process.Kill
	what    string   // the call as messages name it
	process bool     // through an *os.Process: 0 and -1 are refused, other negatives are groups
	checked bool     // the callee compares the PID with 0 or 1 (a signalsPIDFact)
	viaFact bool
}

// sink returns the real signal call sends, or nil.
func (p *pidFlow) sink(call *ast.CallExpr) *pidSink {
	fn := callee(p.info, call)
	if fn == nil {
		return nil
	}
	realSig := func(e ast.Expr) bool { return !isZero(p.info, e) && !isNilSignal(p.info, e) }
	switch {
	case (isPkgFunc(fn, syscallPath, "Kill") || isPkgFunc(fn, unixPath, "Kill")) && len(call.Args) == 2:
		if realSig(call.Args[1]) {
			return &pidSink{call: call, pid: call.Args[0], sig: call.Args[1], what: fn.Pkg().Name() + ".Kill"}
		}
	case isProcessMethod(fn, "Signal") && len(call.Args) == 1:
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && realSig(call.Args[0]) {
			return &pidSink{call: call, pid: sel.X, sig: call.Args[0], what: "Process.Signal", process: true}
		}
	case isProcessMethod(fn, "Kill") && len(call.Args) == 0:
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return &pidSink{call: call, pid: sel.X, what: "Process.Kill", process: true}
		}
	default:
		f := p.signalsFact(fn)
		if f == nil || f.PIDParam >= len(call.Args) {
			return nil
		}
		s := &pidSink{call: call, pid: call.Args[f.PIDParam], what: fn.Name(), checked: f.Checked, viaFact: true}
		if f.SigParam >= 0 {
			if f.SigParam >= len(call.Args) || !realSig(call.Args[f.SigParam]) {
				return nil
			}
			s.sig = call.Args[f.SigParam]
		}
		return s
	}
	return nil
}

// checkedIn reports whether the function at cur compares a value of
// origin o with 0 or 1 (pid > 0, pid <= 0, pid < 1).
func (p *pidFlow) checkedIn(cur inspector.Cursor, o *pidOrigin) bool {
	return p.comparesWithSmall(cur, func(e ast.Expr) bool { return p.origin(nil, e) == o })
}

func (p *pidFlow) comparesParam(cur inspector.Cursor, v *types.Var) bool {
	return p.comparesWithSmall(cur, func(e ast.Expr) bool {
		id, ok := unconvert(p.info, e).(*ast.Ident)
		return ok && p.info.Uses[id] == v
	})
}

func (p *pidFlow) comparesWithSmall(cur inspector.Cursor, match func(ast.Expr) bool) bool {
	for c := range cur.Preorder((*ast.BinaryExpr)(nil), (*ast.CallExpr)(nil)) {
		switch b := c.Node().(type) {
		case *ast.BinaryExpr:
			switch b.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
			default:
				continue
			}
			for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				if v, ok := intConst(p.info, pair[1]); ok && v <= 1 && match(pair[0]) {
					return true
				}
			}
		case *ast.CallExpr:
			// safeprobe.ValidatePID(pid) refuses 0 and negatives.
			if fn := callee(p.info, b); fn != nil && p.isSafeprobe(fn) && fn.Name() == "ValidatePID" && len(b.Args) == 1 && match(b.Args[0]) {
				return true
			}
		}
	}
	return false
}
