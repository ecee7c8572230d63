package python

import "strings"

// A check is how well the code verifies that a PID still names the
// process it means, before it acts on it.
type check int

const (
	noCheck   check = iota
	nameCheck       // name, exe or command line compared: a check unless -strict
	idCheck         // start time compared, a kernel lock, a table of own children
)

// nameMethods are psutil.Process methods whose result compared with the
// expected program is a name check; nameFiles the /proc files that are.
var (
	nameMethods = map[string]bool{"cmdline": true, "exe": true, "name": true}
	nameFiles   = []string{"/cmdline", "/exe", "/comm"}
	lockCalls   = map[string]bool{"fcntl.flock": true, "fcntl.lockf": true, "msvcrt.locking": true, "portalocker.lock": true}
)

// checkIn is the best check the scope (a function, a class or the module)
// makes of the PID held by pidName ("" for any) before acting at site: a
// compared create_time, a kernel lock, membership in a table, pidprobe's
// verified calls, or a compared name, exe or cmdline, directly or through
// a helper of the file that reads them; and the same checks in the
// helpers of the file the scope calls. Checks made only on another
// platform than the site's do not count (a cmdline compare on Windows
// does not verify a signal sent on Unix).
func (f dataflow) checkIn(scope int32, pidName string, site int32) check {
	best := f.checksOf(scope, pidName, site)
	if best == idCheck {
		return best
	}
	f.each(scope, func(i int32) bool {
		if f.kind(i) == "call" {
			for _, def := range f.defsOf(i) {
				if def != scope && !f.t.Contains(def, site) {
					best = max(best, f.checksOf(def, "", site))
				}
			}
		}
		return best < idCheck
	})
	return best
}

// checksOf is checkIn's search within one scope; with site set, checks on
// a platform branch other than the site's do not count.
func (f dataflow) checksOf(scope int32, pidName string, site int32) check {
	best := noCheck
	plat := unknown
	if site != none {
		plat = f.platformOf(site, true)
		if plat == unknown && f.guarded(site, 0, map[int32]bool{}) {
			plat = offWindows // after a return on Windows, say
		}
	}
	f.each(scope, func(i int32) bool {
		var c check
		switch f.kind(i) {
		case "comparison_operator":
			c = f.comparisonCheck(i, pidName)
		case "call":
			name := f.callee(i)
			if lockCalls[name] || strings.HasPrefix(name, "pidprobe.") {
				c = idCheck
			}
		}
		if c > best && (site == none || f.samePlatform(f.platformOf(i, false), plat)) {
			best = c
		}
		return best < idCheck
	})
	return best
}

// samePlatform reports whether code on platform a may run with code on
// platform b (unknown runs with both).
func (f dataflow) samePlatform(a, b tri) bool {
	return a == unknown || b == unknown || a == b
}

// platformOf is where n runs, as the nearest platform branch in its
// function says (onWindows, offWindows), or unknown; with callers, a
// function without one takes its callers' when they agree.
func (f dataflow) platformOf(n int32, callers bool) tri {
	fn := f.function(n)
	for child, a := n, f.parent(n); a != none && a != fn; child, a = a, f.parent(a) {
		if f.kind(a) != "if_statement" {
			continue
		}
		v := f.onWin(f.field(a, "condition"), 0)
		if v == unknown {
			continue
		}
		if child == f.field(a, "consequence") {
			return v
		}
		return v.not()
	}
	if !callers || fn == none {
		return unknown
	}
	plat, seen := unknown, false
	for _, r := range f.references(fn) {
		p := f.platformOf(r, false)
		if seen && p != plat {
			return unknown
		}
		plat, seen = p, true
	}
	return plat
}

// comparisonCheck is the check a comparison makes: create_time() against a
// value is an identity; a name, exe or cmdline (psutil's, /proc's, or a
// helper's that reads them) against one is a name check; pid in table is
// a table of own processes.
func (f dataflow) comparisonCheck(cmp int32, pidName string) check {
	var ops []string
	for c := range f.t.Children(cmp) {
		if f.t.Field(c) == "operators" {
			ops = append(ops, f.text(c))
		}
	}
	op := strings.Join(ops, " ")
	if (op == "in" || op == "not in") && pidName != "" && f.isName(f.t.NamedChild(cmp, 0), pidName) {
		if set := f.strip(f.t.NamedChild(cmp, 1)); set != none && f.kind(set) != "tuple" && f.kind(set) != "list" {
			return idCheck
		}
	}
	if f.holdsName(cmp, 0) {
		return nameCheck
	}
	c := noCheck
	f.each(cmp, func(i int32) bool {
		if m, _ := f.methodCall(i); f.kind(i) == "call" && m == "create_time" {
			c = idCheck
		}
		return c < idCheck
	})
	return c
}

// holdsName reports whether expression n holds a process's name, exe or
// command line: psutil's cmdline(), exe() or name(), a helper that reads
// them, a /proc file of them, or a name bound (also by a comprehension)
// to one of those.
func (f dataflow) holdsName(n int32, depth int) bool {
	if depth > 2 {
		return false
	}
	found := false
	f.each(n, func(i int32) bool {
		switch f.kind(i) {
		case "call":
			m, _ := f.methodCall(i)
			found = nameMethods[m] || f.readsName(i)
		case "identifier":
			for _, v := range f.boundValues(f.scope(i), f.text(i)) {
				if v != none && !f.t.Contains(v, i) && (procNameFile(f.text(v)) || f.holdsName(v, depth+1)) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// readsName reports whether the call reads a process's name, exe or
// command line: opens a /proc file of them, or calls a helper of the
// file that does (a string naming one, or ps -o args=, pgrep or wmic;
// psutil's cmdline() or exe()).
func (f dataflow) readsName(call int32) bool {
	if procNameFile(f.text(call)) {
		return true
	}
	for _, def := range f.defsOf(call) {
		found := false
		f.each(def, func(i int32) bool {
			switch f.kind(i) {
			case "string":
				s := f.text(i)
				found = procNameFile(s) || strings.Contains(s, "pgrep") || strings.Contains(s, "wmic") || strings.Contains(s, "args=") || strings.Contains(s, "comm=")
			case "call":
				m, _ := f.methodCall(i)
				found = m == "cmdline" || m == "exe"
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// procNameFile reports whether text names /proc/PID/cmdline, exe or comm.
func procNameFile(text string) bool {
	if !strings.Contains(text, "/proc") {
		return false
	}
	for _, n := range nameFiles {
		if strings.Contains(text, n) {
			return true
		}
	}
	return false
}
