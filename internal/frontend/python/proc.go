package python

import "strings"

// existsCalls test whether a path exists; existsMethods are pathlib's.
var (
	existsCalls   = map[string]bool{"os.path.exists": true, "os.path.isdir": true, "os.path.lexists": true, "os.access": true}
	existsMethods = map[string]bool{"exists": true, "is_dir": true}
)

// checkProc reports PY005 on a test of /proc/<pid>'s existence.
func checkProc(c *checker, call int32) {
	if procExists(c.f, call) {
		c.report("PY005", call, "/proc/<pid> exists for zombies and thread IDs, and there is no /proc on macOS, Windows or the BSDs (every process reads as dead there): it is no liveness test; use pidprobe.alive(pid) (pidlint -vendor-python-helper)")
	}
}

// procExists reports whether call tests that /proc/<pid> exists.
func procExists(f dataflow, call int32) bool {
	if existsCalls[f.callee(call)] {
		return procPIDPath(f, f.arg(call, 0, "path"), 0)
	}
	if m, recv := f.methodCall(call); existsMethods[m] && len(f.args(call)) == 0 {
		return procPIDPath(f, recv, 0)
	}
	return false
}

// procPIDPath reports whether n is the path /proc/<pid> of a PID that is
// not the program's own: "/proc/%d" % pid, f"/proc/{pid}",
// "/proc/{}".format(pid), "/proc/" + str(pid), os.path.join("/proc", pid),
// Path("/proc", pid), Path("/proc") / pid, or a name bound to one in its
// scope.
func procPIDPath(f dataflow, n int32, depth int) bool {
	n = f.strip(n)
	if n == none || depth > 3 {
		return false
	}
	switch f.kind(n) {
	case "string":
		return procTemplate(f, n, interpolations(f, n))
	case "binary_operator":
		left, right := f.field(n, "left"), f.field(n, "right")
		switch f.text(f.field(n, "operator")) {
		case "%":
			return procTemplate(f, left, []int32{right})
		case "+":
			if s, ok := f.str(left); ok && strings.TrimSuffix(s, "/") == "/proc" {
				return pidLike(f, right)
			}
		case "/":
			return procDir(f, left) && pidLike(f, right)
		}
	case "call":
		name := f.callee(n)
		if m, recv := f.methodCall(n); m == "format" {
			return procTemplate(f, recv, f.args(n))
		}
		if name == "os.path.join" || name == "pathlib.Path" || name == "Path" || name == "pathlib.PurePath" {
			as := f.args(n)
			switch len(as) {
			case 1:
				return procPIDPath(f, as[0], depth+1)
			case 2:
				return procDir(f, as[0]) && pidLike(f, as[1])
			}
		}
	case "identifier":
		scope := f.scope(n)
		for _, id := range f.names[f.text(n)] {
			if f.scope(id) != scope {
				continue
			}
			if a := f.parent(id); f.kind(a) == "assignment" && f.field(a, "left") == id {
				return procPIDPath(f, f.field(a, "right"), depth+1)
			}
		}
	}
	return false
}

// procDir reports whether n is "/proc" or Path("/proc").
func procDir(f dataflow, n int32) bool {
	n = f.strip(n)
	if s, ok := f.str(n); ok {
		return strings.TrimSuffix(s, "/") == "/proc"
	}
	if f.kind(n) == "call" && (f.callee(n) == "pathlib.Path" || f.callee(n) == "Path") && len(f.args(n)) == 1 {
		return procDir(f, f.args(n)[0])
	}
	return false
}

// interpolations are an f-string's {…} expressions.
func interpolations(f dataflow, s int32) []int32 {
	var out []int32
	for c := range f.t.Children(s) {
		if f.kind(c) == "interpolation" {
			out = append(out, f.field(c, "expression"))
		}
	}
	return out
}

// procTemplate reports whether the string s, filled with the values,
// reads /proc/<value>: the literal text around one placeholder is "/proc/"
// before and nothing (or "/") after.
func procTemplate(f dataflow, s int32, values []int32) bool {
	s = f.strip(s)
	if s == none || f.kind(s) != "string" || len(values) != 1 {
		return false
	}
	var b strings.Builder
	for c := range f.t.Children(s) {
		switch f.kind(c) {
		case "string_content":
			b.WriteString(f.text(c))
		case "interpolation":
			b.WriteString("{}")
		}
	}
	t := b.String()
	for _, ph := range []string{"{}", "%d", "%s", "%i", "{0}", "{pid}"} {
		if t == "/proc/"+ph || t == "/proc/"+ph+"/" {
			return pidLike(f, values[0])
		}
	}
	return false
}

// pidLike reports whether n may be another process's PID: not a string
// constant ("self"), not os.getpid().
func pidLike(f dataflow, n int32) bool {
	n = f.strip(n)
	if n == none {
		return false
	}
	if _, ok := f.str(n); ok {
		return false
	}
	if f.kind(n) == "call" {
		switch f.callee(n) {
		case "os.getpid":
			return false
		case "str", "int":
			return pidLike(f, f.arg(n, 0, ""))
		}
	}
	return true
}
