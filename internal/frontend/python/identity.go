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
// makes of the PID held by pidName ("" for any): a compared create_time,
// a kernel lock, membership in a table, pidprobe's verified calls, or a
// compared name, exe or cmdline, directly or through a helper of the
// file that reads them.
func (f *file) checkIn(scope int32, pidName string) check {
	best := noCheck
	f.each(scope, func(i int32) bool {
		switch f.kind(i) {
		case "comparison_operator":
			best = max(best, f.comparisonCheck(i, pidName))
		case "call":
			name := f.callee(i)
			switch {
			case lockCalls[name], strings.HasPrefix(name, "pidprobe."):
				best = idCheck
			}
		}
		return best < idCheck
	})
	return best
}

// comparisonCheck is the check a comparison makes: create_time() against a
// value is an identity; a name, exe or cmdline (psutil's, /proc's, or a
// helper's that reads them) against one is a name check; pid in table is
// a table of own processes.
func (f *file) comparisonCheck(cmp int32, pidName string) check {
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
	c := noCheck
	f.each(cmp, func(i int32) bool {
		if f.kind(i) == "identifier" {
			for _, v := range f.boundValues(f.scope(i), f.text(i)) {
				if procNameFile(f.text(v)) {
					c = max(c, nameCheck)
				}
			}
		}
		if f.kind(i) != "call" {
			return true
		}
		m, _ := f.methodCall(i)
		switch {
		case m == "create_time":
			c = idCheck
		case nameMethods[m], f.readsName(i):
			c = max(c, nameCheck)
		}
		return c < idCheck
	})
	return c
}

// readsName reports whether the call reads a process's name, exe or
// command line: opens a /proc file of them, or calls a helper of the
// file that does (a string naming one, or ps -o args=, pgrep or wmic;
// psutil's cmdline() or exe()).
func (f *file) readsName(call int32) bool {
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
