package pidflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A Signal is a real signal sent to a PID read from storage with nothing
// that checks it still names the process that wrote it.
type Signal struct {
	Pos, End       token.Pos   // the call that sends it
	Fn             *types.Func // the function that holds the call
	What           string      // the call as messages name it
	SigPos, SigEnd token.Pos   // the signal argument; NoPos for none
	SigText        string      // the signal as messages name it, where there is no argument
	PIDPos, PIDEnd token.Pos   // the PID argument (or the process's receiver)
	Command        string      // kill, pkill or taskkill, for a command line
	FileArg        bool        // pkill -F: the command reads the PID from a file itself
	Process        bool        // through a process object: 0 and -1 refused, other negatives groups
	Via            bool        // a call of a function (of this package or another) that signals its parameter
	OS             OSes        // where the call is there to send it
	Negated        bool        // kill(-pgid, …): a process group
	Source         *Source     // where the PID came from
	// ByName: the PID was checked only by comparing the process's name,
	// executable or command line; -strict reports it.
	ByName bool
}

// Signals returns the package's real signals sent to stored PIDs that
// nothing verified, in source order.
func (f *Flow) Signals() []Signal {
	var out []Signal
	for _, s := range f.siteOrder {
		var pick *Source
		byName := false
		for _, src := range s.reached {
			verified, name := f.verified(src, s)
			if !verified {
				pick, byName = src, false
				break
			}
			if name && pick == nil {
				pick, byName = src, true
			}
		}
		if pick != nil {
			out = append(out, f.signal(s, pick, byName))
		}
	}
	return out
}

// verified reports whether src, signalled at s, was checked to name the
// process that wrote it; byName, only by a name.
func (f *Flow) verified(src *Source, s *sinkSite) (verified, byName bool) {
	// The holder's kernel lock on the same file, tested where the PID is
	// read or signalled.
	key := qualifiedKey(src.key, src.keyFn)
	for _, fn := range []*types.Func{src.keyFn, src.Fn, s.fn} {
		if u := f.unitOf[fn]; fn != nil && u != nil && (u.locks[key] || u.locks[""]) {
			return true, false
		}
	}
	return src.Verified()
}

// signal makes the Signal a sink reports, with positions in the source.
func (f *Flow) signal(s *sinkSite, src *Source, byName bool) Signal {
	sig := Signal{Pos: s.call.Pos(), End: s.call.Pos(), Fn: s.fn, What: s.what, SigText: s.sigText,
		Command: s.command, FileArg: s.fileArg, Process: s.process, Via: s.via, OS: s.os, Negated: s.negated,
		Source: src, ByName: byName}
	if call := f.callAt[s.call.Pos()]; call != nil {
		sig.Pos, sig.End = call.Pos(), call.End()
		if e := f.argExpr(s.call, s.sigArg); e != nil {
			sig.SigPos, sig.SigEnd = e.Pos(), e.End()
		}
		if e := f.argExpr(s.call, s.pidArg); e != nil {
			sig.PIDPos, sig.PIDEnd = e.Pos(), e.End()
		} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && s.pidArg == 0 {
			sig.PIDPos, sig.PIDEnd = sel.X.Pos(), sel.X.End() // p.Signal(sig): the process
		}
	}
	locked := src.Lock || f.safeLocked[qualifiedKey(src.key, src.keyFn)]
	if field := fieldRead(s.pid); locked != src.Lock || field != "" && (src.Kind == Decoded || src.Kind == Row) {
		c := *src
		c.Lock = locked
		if src.Kind == Decoded || src.Kind == Row {
			c.Field = field
		}
		sig.Source = &c
	}
	return sig
}

// fieldRead names the struct field a value was loaded from ("State.Pid"),
// through conversions; "" if it was not.
func fieldRead(v ssa.Value) string {
	if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
		if call, ok := ex.Tuple.(*ssa.Call); ok && len(call.Call.Args) > 0 {
			if fn := call.Call.StaticCallee(); fn != nil && (fn.Name() == "FindProcess" || strings.HasPrefix(fn.Name(), "NewProcess")) {
				return fieldRead(call.Call.Args[len(call.Call.Args)-1]) // the process found for it
			}
		}
	}
	switch x := unconvert(v).(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			return qualifiedField(fa.X.Type(), fa.Field)
		}
	case *ssa.Field:
		return qualifiedField(x.X.Type(), x.Field)
	}
	return ""
}

// site returns the sink at a call, made once per call.
func (f *Flow) site(c *call) *sinkSite {
	ins, u := c.ins, c.u
	s := f.sites[ins]
	if s == nil {
		s = &sinkSite{call: ins, fn: u.obj, pidArg: -1, sigArg: -1}
		f.sites[ins] = s
		f.siteOrder = append(f.siteOrder, s)
	}
	return s
}

// viaSite returns the sink a call of a function that signals its
// parameter stands for: callee's name, with the call that sends the
// signal inside it; the signal is this call's argument, or the one the
// callee always sends.
func (f *Flow) viaSite(c *call, ps paramSignal) *sinkSite {
	callee, args := c.fn, c.args
	s := f.site(c)
	name := callee.Name()
	if callee.Pkg() != f.pass.Pkg {
		name = qualifiedName(callee)
	}
	s.what, s.via, s.process, s.os = name+" ("+ps.site.what+")", true, ps.site.process, ps.site.os
	s.pidArg, s.pid = ps.param, args[ps.param]
	switch {
	case ps.sigParam >= 0:
		s.sigArg, s.sig = ps.sigParam, args[ps.sigParam]
	case ps.sigText != "":
		s.sigText = ps.sigText
	default:
		s.sigText = f.sigText(ps.site)
	}
	return s
}

// sigText is the signal a sink sends, as messages name it.
func (f *Flow) sigText(s *sinkSite) string {
	if s.sigArg >= 0 && s.call != nil {
		if e := f.argExpr(s.call, s.sigArg); e != nil {
			return types.ExprString(e)
		}
	}
	if s.sigText != "" {
		return s.sigText
	}
	return "a signal"
}

// A sourceKey names one Source: a read at a call, or what a call of a
// function of the package (or a decoder) makes of another Source.
type sourceKey struct {
	call   ssa.CallInstruction
	base   *Source
	kind   SourceKind
	caller *types.Func
}

// source returns the Source a call reads, made once: its path is the
// argument at index path of args (-1: none).
func (f *Flow) source(ins ssa.CallInstruction, kind SourceKind, args []ssa.Value, path int) *Source {
	k := sourceKey{call: ins, kind: kind}
	if s := f.sources[k]; s != nil {
		return s
	}
	s := &Source{Kind: kind, Fn: declaredFunc(ins.Parent())}
	s.Pos, s.End = f.callRange(ins)
	if path >= 0 && path < len(args) {
		s.key, s.keyFn = pathKey(args[path]), s.Fn
		if e := f.argExpr(ins, path); e != nil {
			s.Subject = types.ExprString(e)
			s.PathPos, s.PathEnd = e.Pos(), e.End()
		}
	}
	f.sources[k] = s
	return s
}

// derived returns the Source a call of a function of the package (or of
// another package, with a fact) makes of a read it returns: one per read
// and calling function, checked there on its own. (One per call would
// multiply as helpers call helpers.)
func (f *Flow) derived(src *Source, ins ssa.CallInstruction, args []ssa.Value) *Source {
	root := src
	for root.base != nil {
		root = root.base
	}
	caller := declaredFunc(ins.Parent())
	k := sourceKey{base: root, kind: src.Kind, caller: caller}
	if s := f.sources[k]; s != nil {
		return s
	}
	s := src.derive()
	if strings.HasPrefix(src.key, paramKeyPrefix) {
		s.key, s.keyFn = rekey(src.key, args), caller
	}
	if !s.Pos.IsValid() {
		s.Pos, s.End = f.callRange(ins)
		s.Fn = caller
	}
	f.sources[k] = s
	return s
}

// decoded returns the Source of what a decoder call fills from a read.
func (f *Flow) decoded(ins ssa.CallInstruction, parent *Source) *Source {
	k := sourceKey{call: ins, base: parent, kind: Decoded}
	if s := f.sources[k]; s != nil {
		return s
	}
	s := &Source{Kind: Decoded, Fn: declaredFunc(ins.Parent()), Parent: parent, key: parent.key, keyFn: parent.keyFn, Lock: parent.Lock,
		PathPos: parent.PathPos, PathEnd: parent.PathEnd, base: parent}
	s.Pos, s.End = f.callRange(ins)
	f.sources[k] = s
	return s
}

// callRange is the span of a call's expression in the source.
func (f *Flow) callRange(ins ssa.CallInstruction) (token.Pos, token.Pos) {
	if call := f.callAt[ins.Pos()]; call != nil {
		return call.Pos(), call.End()
	}
	return ins.Pos(), ins.Pos()
}

// argExpr returns the expression of a call's argument i, counted as the
// flow counts arguments (a method's receiver first), or nil.
func (f *Flow) argExpr(ins ssa.CallInstruction, i int) ast.Expr {
	call := f.callAt[ins.Pos()]
	if call == nil || i < 0 {
		return nil
	}
	c := ins.Common()
	if c.IsInvoke() || c.Signature().Recv() != nil || boundMethod(c) {
		i-- // the receiver is not among the call's arguments
	}
	if i < 0 || i >= len(call.Args) {
		return nil
	}
	return call.Args[i]
}

func boundMethod(c *ssa.CallCommon) bool {
	fn := c.StaticCallee()
	return fn != nil && strings.HasPrefix(fn.Synthetic, "bound method wrapper")
}

// declaredFunc returns the declared function a function (or literal)
// belongs to.
func declaredFunc(fn *ssa.Function) *types.Func {
	for fn != nil && fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn == nil {
		return nil
	}
	obj, _ := fn.Object().(*types.Func)
	return obj
}

// valueText returns the source text of the argument of a call that is v
// (an element of a variadic call's list counts as its own argument), or
// "".
func (f *Flow) valueText(ins ssa.CallInstruction, v ssa.Value) string {
	c := ins.Common()
	args := c.Args
	if n := len(args); n > 0 && c.Signature().Variadic() {
		if elems, ok := varargs(args[n-1]); ok {
			args = append(args[:n-1:n-1], elems...)
		}
	}
	for i, a := range args {
		if a == v {
			if e := f.argExpr(ins, i); e != nil {
				return types.ExprString(e)
			}
		}
	}
	return ""
}
