package python

import (
	"fmt"
	"strconv"
	"strings"
)

// windowsSignals are the signal module's names that Windows has: os.kill
// with one of them runs there (the others are AttributeErrors first).
var windowsSignals = map[string]bool{
	"SIGTERM": true, "SIGINT": true, "SIGABRT": true, "SIGBREAK": true, "CTRL_BREAK_EVENT": true,
	"SIGFPE": true, "SIGILL": true, "SIGSEGV": true,
}

// zeroSignals are the signal module's names for 0.
var zeroSignals = map[string]bool{"SIG_DFL": true, "CTRL_C_EVENT": true}

// signalValue reads a signal argument: its number when constant (0 for
// SIG_DFL), and whether Windows has it.
func signalValue(f dataflow, n int32) (value int, known, windows bool) {
	n = f.strip(n)
	if n == none {
		return 0, false, false
	}
	switch f.kind(n) {
	case "integer":
		v, err := strconv.ParseInt(strings.ReplaceAll(f.text(n), "_", ""), 0, 64)
		return int(v), err == nil, err == nil
	case "identifier":
		if v := f.moduleValue(f.text(n)); v != none && v != n {
			return signalValue(f, v)
		}
	case "attribute":
		q, name := f.qual(n), f.attrName(n)
		if !strings.HasPrefix(q, "signal.") {
			return 0, false, false
		}
		if zeroSignals[name] {
			return 0, true, true
		}
		return -1, true, windowsSignals[name]
	}
	return 0, false, false
}

// checkKill reports PY001 and PY002 on an os.kill call.
func checkKill(c *checker, call int32) {
	f := c.f
	sig, known, windows := signalValue(f, f.arg(call, 1, "sig"))
	if !known || !windows {
		return
	}
	shape := lookupOnlyExcept(f, call)
	if sig != 0 && shape == none {
		return
	}
	if f.offWindows(call) {
		return
	}
	if sig == 0 {
		msg := "os.kill(pid, 0) is no liveness probe on Windows: CPython sends CTRL_C_EVENT to every process of the console (this program too), and a PID that is gone raises OSError [WinError 87], not ProcessLookupError"
		if shape != none {
			msg += fmt.Sprintf(", which the except at line %d lets through", f.line(shape))
		}
		c.report("PY001", call, msg+"; use pidprobe.alive(pid) (pidlint -vendor-python-helper), or keep this under a sys.platform test")
		return
	}
	c.report("PY002", call, fmt.Sprintf("on Windows, os.kill of a PID that is gone raises OSError [WinError 87], not ProcessLookupError: the except at line %d does not catch it; catch OSError", f.line(shape)))
}

// lookupOnlyExcept returns the except clause that catches
// ProcessLookupError or PermissionError around call while no handler
// around it catches OSError or wider, or none.
func lookupOnlyExcept(f dataflow, call int32) int32 {
	shape := none
	for child, a := call, f.parent(call); a != none; child, a = a, f.parent(a) {
		switch f.kind(a) {
		case "function_definition", "lambda", "class_definition":
			return shape
		case "try_statement":
			if child != f.field(a, "body") {
				continue
			}
			for h := range f.t.NamedChildren(a) {
				if f.kind(h) != "except_clause" {
					continue
				}
				types := exceptTypes(f, h)
				if len(types) == 0 {
					return none // a bare except
				}
				for _, t := range types {
					switch t {
					case "OSError", "EnvironmentError", "IOError", "WindowsError", "Exception", "BaseException", "error":
						return none
					case "ProcessLookupError", "PermissionError":
						if shape == none {
							shape = h
						}
					}
				}
			}
		}
	}
	return shape
}

// exceptTypes are the last names of the exception types an except
// clause catches; none for a bare except.
func exceptTypes(f dataflow, h int32) []string {
	t := f.field(h, "value")
	if t == none {
		for c := range f.t.NamedChildren(h) {
			if f.kind(c) != "block" {
				t = c
			}
			break
		}
	}
	if t == none {
		return nil
	}
	if f.kind(t) == "as_pattern" {
		t = f.t.NamedChild(t, 0)
	}
	t = f.strip(t)
	var out []string
	add := func(n int32) {
		name := f.text(n)
		if i := strings.LastIndex(name, "."); i >= 0 {
			name = name[i+1:]
		}
		out = append(out, name)
	}
	if f.kind(t) == "tuple" {
		for c := range f.t.NamedChildren(t) {
			add(c)
		}
	} else {
		add(t)
	}
	return out
}
