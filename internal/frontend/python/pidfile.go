package python

import (
	"fmt"
	"strings"
)

// checkCreate reports PY004 on an exclusive create of a PID or lock file
// that holds the program's PID, when nothing in its class (or else its
// file) recovers a stale file by the holder's identity or a kernel lock.
func checkCreate(c *checker, call int32) {
	f := c.f
	path := exclusiveCreate(f, call)
	if path == none || !namesPIDFile(f, path, call) {
		return
	}
	fn := f.scope(call)
	if callsAny(f, fn, "os.replace", "os.rename", "shutil.move", "os.link") {
		return // a temporary file moved into place
	}
	scopes := recoveryScopes(f, call)
	if !anyScope(f, scopes, func(s int32) bool { return callsAny(f, s, "os.getpid") }) {
		return // not the program's own PID file
	}
	if anyScope(f, scopes, func(s int32) bool { return f.checkIn(s, "", call) != noCheck }) {
		return
	}
	probe := none
	anyScope(f, scopes, func(s int32) bool { probe = reuseBlindProbe(f, s); return probe != none })
	if probe != none {
		c.report("PY004", call, fmt.Sprintf("exclusive create of a PID file whose stale-file recovery rests on a reuse-blind probe (line %d): after a reboot or PID reuse an unrelated process holds the number and every start fails; lock the file instead (pidprobe.PidLock, pidlint -vendor-python-helper)", f.line(probe)))
		return
	}
	if unlinksOnExists(f, call) {
		return
	}
	c.report("PY004", call, "exclusive create of a PID file with no stale-file recovery: after a crash or SIGKILL the file stays and every start fails; lock the file instead (pidprobe.PidLock, pidlint -vendor-python-helper), which the kernel releases when the holder dies")
}

// recoveryScopes are where the recovery of a PID file created at call
// may be: its class, for a method; else its function and the functions
// of the file it calls; at the top level, the file.
func recoveryScopes(f dataflow, call int32) []int32 {
	if c := f.class(call); c != none {
		return []int32{c}
	}
	fn := f.function(call)
	if fn == none {
		return []int32{0}
	}
	scopes := []int32{fn}
	f.eachIn(fn, func(i int32) {
		if f.kind(i) == "call" {
			scopes = append(scopes, f.defsOf(i)...)
		}
	})
	return scopes
}

// anyScope reports whether pred holds for one of the scopes.
func anyScope(f dataflow, scopes []int32, pred func(int32) bool) bool {
	for _, s := range scopes {
		if pred(s) {
			return true
		}
	}
	return false
}

// exclusiveCreate returns the path argument when call creates a file
// exclusively: os.open with O_CREAT and O_EXCL (also through a constant
// of the file), open(path, "x"), Path(path).open("x"); else none.
func exclusiveCreate(f dataflow, call int32) int32 {
	switch name := f.callee(call); name {
	case "os.open":
		flags := flagNames(f, f.arg(call, 1, "flags"), 0)
		if flags["O_CREAT"] && flags["O_EXCL"] {
			return f.arg(call, 0, "path")
		}
		return none
	case "open", "io.open", "codecs.open":
		if xMode(f.file, f.arg(call, 1, "mode")) {
			return f.arg(call, 0, "file")
		}
		return none
	}
	if m, recv := f.methodCall(call); m == "open" && xMode(f.file, f.arg(call, 0, "mode")) {
		return recv
	}
	return none
}

// xMode reports whether n is a mode string that creates exclusively.
func xMode(f *file, n int32) bool {
	s, ok := f.str(n)
	return ok && strings.Contains(s, "x") && strings.Trim(s, "xbt+") == ""
}

// flagNames are the names or-ed into a flags expression, following names
// of the file bound to constants.
func flagNames(f dataflow, n int32, depth int) map[string]bool {
	out := map[string]bool{}
	if n == none || depth > 3 {
		return out
	}
	f.each(n, func(i int32) bool {
		switch f.kind(i) {
		case "attribute":
			out[f.attrName(i)] = true
			return false
		case "identifier":
			out[f.text(i)] = true
			if v := f.moduleValue(f.text(i)); v != none {
				for k := range flagNames(f, v, depth+1) {
					out[k] = true
				}
			}
		}
		return true
	})
	return out
}

// namesPIDFile reports whether a path is a PID or lock file: its text, the
// values its name or self attribute is bound to, or the function or class
// it is created in, says pid or lock.
func namesPIDFile(f dataflow, path, call int32) bool {
	texts := []string{f.text(path)}
	p := f.strip(path)
	var name string
	switch f.kind(p) {
	case "identifier":
		name = f.text(p)
	case "attribute":
		name = f.attrName(p)
	}
	for _, id := range f.names[name] {
		if a := f.parent(id); f.kind(a) == "assignment" || (f.kind(a) == "attribute" && f.kind(f.parent(a)) == "assignment") {
			if f.kind(a) == "attribute" {
				a = f.parent(a)
			}
			texts = append(texts, f.text(f.field(a, "right")))
		}
	}
	for _, scope := range []int32{f.function(call), f.class(call)} {
		if scope != none {
			texts = append(texts, f.text(f.field(scope, "name")))
		}
	}
	for _, t := range texts {
		t = strings.ToLower(t)
		if strings.Contains(t, "pid") || strings.Contains(t, "lock") {
			return true
		}
	}
	return false
}

// callsAny reports whether scope calls one of the functions.
func callsAny(f dataflow, scope int32, names ...string) bool {
	found := false
	f.each(scope, func(i int32) bool {
		if f.kind(i) == "call" {
			name := f.callee(i)
			for _, n := range names {
				found = found || name == n
			}
		}
		return !found
	})
	return found
}

// reuseBlindProbe returns a liveness probe in scope that cannot tell a
// reused PID: os.kill(pid, 0), psutil.pid_exists, is_running() of a
// Process made from the PID, /proc/PID existence; or none.
func reuseBlindProbe(f dataflow, scope int32) int32 {
	found := none
	f.each(scope, func(i int32) bool {
		if f.kind(i) != "call" {
			return found == none
		}
		switch name := f.callee(i); {
		case name == "os.kill":
			if sig, known, _ := signalValue(f, f.arg(i, 1, "sig")); known && sig == 0 {
				found = i
			}
		case name == "psutil.pid_exists", procExists(f, i):
			found = i
		default:
			if m, _ := f.methodCall(i); m == "is_running" {
				found = i
			}
		}
		return found == none
	})
	return found
}

// unlinksOnExists reports whether a handler around the create removes the
// file when it exists (and tries again): a recovery, even if unchecked.
func unlinksOnExists(f dataflow, call int32) bool {
	for child, a := call, f.parent(call); a != none; child, a = a, f.parent(a) {
		if k := f.kind(a); k == "function_definition" || k == "class_definition" {
			return false
		}
		if f.kind(a) != "try_statement" || child != f.field(a, "body") {
			continue
		}
		for h := range f.t.NamedChildren(a) {
			if f.kind(h) == "except_clause" && callsAny(f, h, "os.unlink", "os.remove") {
				return true
			}
			if f.kind(h) == "except_clause" && callsMethod(f, h, "unlink") {
				return true
			}
		}
	}
	return false
}

// callsMethod reports whether scope calls a method of the name.
func callsMethod(f dataflow, scope int32, method string) bool {
	found := false
	f.each(scope, func(i int32) bool {
		if f.kind(i) == "call" {
			m, _ := f.methodCall(i)
			found = found || m == method
		}
		return !found
	})
	return found
}
