package python

import "strings"

// platforms reads a file for where its code can run: the platform tests
// around a node, earlier in its function, at its callers and importers.
type platforms struct{ *file }

// A tri is what a condition evaluates to on Windows: true there, false
// there, or not known from the code.
type tri int

const (
	unknown tri = iota
	onWindows
	offWindows
)

func (v tri) not() tri {
	switch v {
	case onWindows:
		return offWindows
	case offWindows:
		return onWindows
	}
	return unknown
}

// platformNames are the expressions that name the platform, by the
// qualified name they stand for, and how to read a string compared with
// them.
var platformNames = map[string]func(string) tri{
	"sys.platform": func(s string) tri {
		return choose(strings.HasPrefix(s, "win"), s != "")
	},
	"os.name":         func(s string) tri { return choose(s == "nt", s == "posix") },
	"platform.system": func(s string) tri { return choose(strings.EqualFold(s, "windows") || s == "Microsoft", s != "") },
	// twisted's runtime.platformType, and code that copies it.
	"platformType": func(s string) tri { return choose(s == "win32", s == "posix") },
}

// choose is onWindows when win, offWindows when other, else unknown.
func choose(win, other bool) tri {
	switch {
	case win:
		return onWindows
	case other:
		return offWindows
	}
	return unknown
}

// windowsFlagNames are names of flags that say the program runs on
// Windows (IS_WINDOWS, _WIN32, is_windows()), and posixFlagNames those
// that say it does not, compared without case and underscores.
var (
	windowsFlagNames = []string{"iswindows", "windows", "win", "win32", "iswin", "iswin32", "onwindows", "mswindows", "runningonwindows", "iswinplatform", "windowsplatform"}
	posixFlagNames   = []string{"isposix", "posix", "onposix", "islinux", "linux", "isdarwin", "darwin", "ismacos", "macos", "isunix", "unix", "isbsd"}
)

// posixOnlyAttrs are attributes of os and signal that Windows lacks, so
// that hasattr(os, "fork") is false there.
var posixOnlyAttrs = map[string]bool{
	"os.fork": true, "os.getuid": true, "os.geteuid": true, "os.setsid": true, "os.killpg": true, "os.getpgid": true,
	"os.setuid": true, "signal.SIGKILL": true, "signal.SIGHUP": true, "signal.SIGUSR1": true,
	"signal.SIGQUIT": true, "signal.SIGCHLD": true, "signal.SIGALRM": true,
}

// platformKey returns which platform expression n is ("sys.platform",
// "os.name", "platform.system", "platformType"), or "".
func (f platforms) platformKey(n int32) string {
	n = f.strip(n)
	if n == none {
		return ""
	}
	q := f.qual(n)
	if f.kind(n) == "call" {
		q = f.qual(f.field(n, "function"))
	}
	switch {
	case platformNames[q] != nil:
		return q
	case f.kind(n) == "identifier" && f.text(n) == "platformType", f.attrName(n) == "platformType":
		return "platformType"
	case f.kind(n) == "attribute" && f.attrName(n) == "platform" && f.isName(f.field(n, "object"), "sys"):
		return "sys.platform"
	}
	return ""
}

// onWin evaluates a condition on Windows. depth bounds the names it
// follows to their values.
func (f platforms) onWin(n int32, depth int) tri {
	n = f.strip(n)
	if n == none || depth > 4 {
		return unknown
	}
	switch f.kind(n) {
	case "not_operator":
		return f.onWin(f.field(n, "argument"), depth).not()
	case "boolean_operator":
		l, r := f.onWin(f.field(n, "left"), depth), f.onWin(f.field(n, "right"), depth)
		if f.text(f.field(n, "operator")) == "and" {
			switch {
			case l == offWindows || r == offWindows:
				return offWindows
			case l == onWindows && r == onWindows:
				return onWindows
			}
			return unknown
		}
		switch {
		case l == onWindows || r == onWindows:
			return onWindows
		case l == offWindows && r == offWindows:
			return offWindows
		}
		return unknown
	case "comparison_operator":
		return f.comparisonOnWin(n)
	case "call":
		return f.callOnWin(n, depth)
	case "identifier", "attribute":
		return f.flagOnWin(n, depth)
	}
	return unknown
}

// comparisonOnWin evaluates P == "win32", P != "nt", P in ("Windows", …).
func (f platforms) comparisonOnWin(n int32) tri {
	var operands []int32
	var ops []string
	for c := range f.t.Children(n) {
		if f.t.Field(c) == "operators" {
			ops = append(ops, f.text(c))
		} else if f.t.Named(c) {
			operands = append(operands, c)
		}
	}
	if len(operands) != 2 || len(ops) == 0 {
		return unknown
	}
	op := strings.Join(ops, " ")
	key, other := f.platformKey(operands[0]), operands[1]
	if key == "" {
		key, other = f.platformKey(operands[1]), operands[0]
	}
	if key == "" {
		return unknown
	}
	read := platformNames[key]
	var v tri
	switch op {
	case "==", "!=", "is", "is not":
		s, ok := f.str(other)
		if !ok {
			return unknown
		}
		v = read(s)
	case "in", "not in":
		v = f.setOnWin(other, read)
	default:
		return unknown
	}
	if op == "!=" || op == "is not" || op == "not in" {
		return v.not()
	}
	return v
}

// setOnWin reads P in ("a", "b"): on Windows when every string is
// Windows', off it when none is.
func (f platforms) setOnWin(set int32, read func(string) tri) tri {
	set = f.strip(set)
	var seen []tri
	for c := range f.t.NamedChildren(set) {
		s, ok := f.str(c)
		if !ok {
			return unknown
		}
		seen = append(seen, read(s))
	}
	if len(seen) == 0 {
		return unknown
	}
	all := seen[0]
	for _, v := range seen[1:] {
		if v != all {
			return unknown
		}
	}
	return all
}

// callOnWin evaluates sys.platform.startswith("win"), isWindows(),
// hasattr(os, "fork").
func (f platforms) callOnWin(call int32, depth int) tri {
	if m, recv := f.methodCall(call); m == "startswith" {
		if key := f.platformKey(recv); key != "" {
			if s, ok := f.str(f.arg(call, 0, "")); ok && s != "" {
				return choose(platformNames[key](s) == onWindows, true)
			}
		}
		return unknown
	}
	if f.callee(call) == "hasattr" {
		obj, attr := f.qual(f.arg(call, 0, "")), ""
		if s, ok := f.str(f.arg(call, 1, "")); ok {
			attr = s
		}
		if posixOnlyAttrs[obj+"."+attr] {
			return offWindows
		}
		return unknown
	}
	return f.flagOnWin(f.field(call, "function"), depth)
}

// flagOnWin evaluates a name or attribute used as a platform flag: a
// variable of the file bound to a platform test, or a name that says so.
func (f platforms) flagOnWin(n int32, depth int) tri {
	name := f.text(n)
	if f.kind(n) == "attribute" {
		name = f.attrName(n)
	} else if v := f.moduleValue(name); v != none {
		return f.onWin(v, depth+1)
	}
	key := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	for _, w := range windowsFlagNames {
		if key == w {
			return onWindows
		}
	}
	for _, p := range posixFlagNames {
		if key == p {
			return offWindows
		}
	}
	return unknown
}

// moduleValue returns the value a name is assigned once at the top level
// of the file or of a class (NAME = value), or none.
func (f platforms) moduleValue(name string) int32 {
	found := none
	for _, n := range f.names[name] {
		a := f.parent(n)
		if a == none || f.kind(a) != "assignment" || f.field(a, "left") != n {
			continue
		}
		if fn := f.function(a); fn != none {
			continue
		}
		if found != none {
			return none // assigned more than once: which value holds is not known
		}
		found = f.field(a, "right")
	}
	return found
}
