package pidflow

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// This file reads what the flow needs off SSA values: constants, the
// elements of a variadic call's arguments, the strings a path is built
// from, and a key that names a file path wherever it is computed.

// unconvert returns v without conversions and interface wrapping.
func unconvert(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.Convert:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		default:
			return v
		}
	}
}

// intConst returns the value of an integer constant (through
// conversions: syscall.Signal(0), any(9)).
func intConst(v ssa.Value) (int64, bool) {
	c, ok := unconvert(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(c.Value)
	return n, exact
}

// stringConst returns the value of a string constant.
func stringConst(v ssa.Value) (string, bool) {
	c, ok := unconvert(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// isNil reports whether v is the constant nil.
func isNil(v ssa.Value) bool {
	c, ok := unconvert(v).(*ssa.Const)
	return ok && c.IsNil()
}

// varargs returns the elements of a variadic call's last argument when
// the call lists them (f(a, b), not f(s...)), in order.
func varargs(v ssa.Value) ([]ssa.Value, bool) {
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return nil, true // no arguments at all
	}
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	n := 0
	if a, ok := arr.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array); ok {
		n = int(a.Len())
	}
	out := make([]ssa.Value, n)
	for _, ref := range *arr.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		i, ok := intConst(ia.Index)
		if !ok || i < 0 || int(i) >= n {
			continue
		}
		for _, r := range *ia.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == ia {
				out[i] = st.Val
			}
		}
	}
	for _, e := range out {
		if e == nil {
			return nil, false
		}
	}
	return out, true
}

// buildParts calls consts with the string constants a value is built from: by
// concatenation, fmt.Sprintf, filepath.Join, path.Join, string(…),
// through at most depth calls and phi edges; names gives the names of
// the variables, fields and functions it uses.
func buildParts(v ssa.Value, depth int, consts func(string), names func(string)) {
	if depth > 4 || v == nil {
		return
	}
	v = unconvert(v)
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.String {
			consts(constant.StringVal(x.Value))
		}
	case *ssa.BinOp:
		buildParts(x.X, depth+1, consts, names)
		buildParts(x.Y, depth+1, consts, names)
	case *ssa.Phi:
		for _, e := range x.Edges {
			buildParts(e, depth+1, consts, names)
		}
	case *ssa.Parameter:
		names(x.Name())
	case *ssa.FreeVar:
		names(x.Name())
	case *ssa.Global:
		names(x.Name())
	case *ssa.UnOp:
		if x.Op == token.MUL {
			switch a := x.X.(type) {
			case *ssa.Global:
				names(a.Name())
			case *ssa.FieldAddr:
				names(fieldName(a.X.Type(), a.Field))
			}
			buildParts(x.X, depth+1, consts, names)
		}
	case *ssa.Field:
		names(fieldName(x.X.Type(), x.Field))
	case *ssa.Call:
		if fn := x.Call.StaticCallee(); fn != nil {
			names(fn.Name())
		}
		args := x.Call.Args
		if len(args) > 0 {
			if elems, ok := varargs(args[len(args)-1]); ok && x.Call.Signature().Variadic() {
				args = append(args[:len(args)-1:len(args)-1], elems...)
			}
		}
		for _, a := range args {
			buildParts(a, depth+1, consts, names)
		}
	}
}

// fieldName is the name of field i of the struct t (or *t) is.
func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok && i < st.NumFields() {
		return st.Field(i).Name()
	}
	return ""
}

// qualifiedField names field i of t as messages do: "State.Pid".
func qualifiedField(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	name := fieldName(t, i)
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name() + "." + name
	}
	return name
}

// kernelPath reports whether a path names what the kernel lists now
// (/proc, /sys, cgroup files), not storage: by the strings it is built
// from and the names it uses (procRoot, hostProc(…), cgroupDir).
func kernelPath(v ssa.Value) bool {
	found := false
	buildParts(v, 0, func(s string) {
		found = found || strings.Contains(s, "/proc") || strings.Contains(s, "cgroup") || strings.Contains(s, "/sys/")
	}, func(name string) {
		n := strings.ToLower(name)
		found = found || (strings.Contains(n, "proc") || strings.Contains(n, "cgroup")) && !strings.Contains(n, "pid")
	})
	return found
}

// identityFile returns the check that reading the /proc file a path
// names allows: the start time (stat) or a name (cmdline, exe, comm,
// status); 0 if it names none of them.
func identityFile(v ssa.Value) check {
	proc, c := false, check(0)
	buildParts(v, 0, func(s string) {
		proc = proc || strings.Contains(s, "/proc")
		switch {
		case strings.Contains(s, "/stat") && !strings.Contains(s, "/status") && !strings.Contains(s, "/statm"):
			c |= checkIdentity
		case strings.Contains(s, "cmdline"), strings.Contains(s, "/exe"), strings.Contains(s, "/comm"), strings.Contains(s, "/status"):
			c |= checkName
		case s == "stat":
			c |= checkIdentity
		case s == "cmdline", s == "exe", s == "comm", s == "status":
			c |= checkName
		}
	}, func(string) {})
	if !proc {
		return 0
	}
	return c
}

// namesPIDFile reports whether a path speaks of a PID file: a string or
// a name in it with "pid".
func namesPIDFile(v ssa.Value) bool {
	found := false
	f := func(s string) { found = found || strings.Contains(strings.ToLower(s), "pid") }
	buildParts(v, 0, f, f)
	return found
}

// pathKey names a file path so that two computations of the same path
// match: its constants and the names of the variables, fields and
// functions it is built from, in order; "" when nothing names it. A
// parameter of a declared function is "param:N": a call's summary puts
// the caller's argument's key in its place (rekey).
func pathKey(v ssa.Value) string {
	if p, ok := unconvert(v).(*ssa.Parameter); ok && p.Parent() != nil && p.Parent().Parent() == nil {
		for i, q := range p.Parent().Params {
			if q == p {
				return paramKeyPrefix + strconv.Itoa(i)
			}
		}
	}
	var b strings.Builder
	buildParts(v, 0, func(s string) { b.WriteString("\"" + s + "\"") }, func(n string) { b.WriteString(n + " ") })
	return b.String()
}

const paramKeyPrefix = "param:"

// rekey returns key as the caller of the function it was made in sees it:
// a parameter's key becomes the key of the argument args gives it.
func rekey(key string, args []ssa.Value) string {
	n, ok := strings.CutPrefix(key, paramKeyPrefix)
	if !ok {
		return key
	}
	i, err := strconv.Atoi(n)
	if err != nil || i >= len(args) {
		return ""
	}
	return pathKey(args[i])
}

// constantInt returns an integer constant's value.
func constantInt(c *types.Const) (int64, bool) {
	if c.Val().Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Val())
}

// qualifiedKey makes a parameter's key ("param:N") the key of that
// parameter of fn, for the package-wide sets of locked files.
func qualifiedKey(key string, fn *types.Func) string {
	if !strings.HasPrefix(key, paramKeyPrefix) || fn == nil {
		return key
	}
	return key + "@" + fn.FullName()
}

// firstString returns the index of the first string argument (a lock's
// path), or -1.
func firstString(args []ssa.Value) int {
	for i, a := range args {
		if isString(a.Type()) {
			return i
		}
	}
	return -1
}

// holdsRecord reports whether a value of type t may hold a PID: an
// integer, a process, a struct with a field that names a PID and holds
// one, or a pointer, slice, array or map of one.
func holdsRecord(t types.Type, depth int) bool {
	if depth > 3 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsInteger != 0
	case *types.Pointer:
		return mayHoldPID(t) || holdsRecord(u.Elem(), depth+1)
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return false // data, not a PID
		}
		return holdsRecord(u.Elem(), depth+1)
	case *types.Array:
		return holdsRecord(u.Elem(), depth+1)
	case *types.Map:
		return holdsRecord(u.Elem(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			f := u.Field(i)
			if strings.Contains(strings.ToLower(f.Name()), "pid") && holdsRecord(f.Type(), depth+1) || f.Embedded() && holdsRecord(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}
