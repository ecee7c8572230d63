package python

import "strings"

// dataflow reads a file for what the rules ask of a value: where a PID
// comes from, and what checks the process it names.
type dataflow struct{ platforms }

// An origin is where a PID value comes from, as far as the file shows.
type origin struct {
	kind originKind
	what string // for external: "a file", "JSON state", "the environment"
	at   int32  // the node that reads it
}

type originKind int

// The kinds, from the least to the most worth reporting: a value with
// several sources takes the worst (an attribute set from Popen.pid in one
// method and from a state file in another is external).
const (
	literal  originKind = iota // a constant
	own                        // the program's own children, itself, its parent
	opaque                     // not known
	external                   // read from storage: a file, JSON, the environment
)

func worst(a, b origin) origin {
	if b.kind > a.kind {
		return b
	}
	return a
}

// ownCalls make the program's own processes or name itself: their PIDs
// (and the .pid of the objects they return) are not from storage.
var ownCalls = map[string]bool{
	"subprocess.Popen": true, "subprocess.run": true, "multiprocessing.Process": true, "os.fork": true, "os.forkpty": true,
	"pty.fork": true, "os.getpid": true, "os.getppid": true, "os.getpgrp": true, "os.posix_spawn": true, "os.posix_spawnp": true,
	"asyncio.create_subprocess_exec": true, "asyncio.create_subprocess_shell": true, "psutil.Popen": true,
}

// storageCalls read a PID from storage.
var storageCalls = map[string]string{
	"json.load": "JSON state", "json.loads": "JSON state", "pickle.load": "pickled state", "pickle.loads": "pickled state",
	"yaml.safe_load": "YAML state", "yaml.load": "YAML state", "toml.load": "TOML state", "tomllib.load": "TOML state",
	"os.getenv": "the environment", "os.environ.get": "the environment", "open": "a file", "io.open": "a file",
	"codecs.open": "a file", "os.fdopen": "a file", "pathlib.Path": "a file path", "Path": "a file path", "os.pread": "a file",
	"os.read": "a file", "linecache.getline": "a file",
}

// readMethods read a file's text; passThrough methods keep what their
// receiver holds (a string or a dict read from storage stays so).
var (
	readMethods = map[string]bool{"read": true, "readline": true, "readlines": true, "read_text": true, "read_bytes": true}
	passThrough = map[string]bool{
		"strip": true, "rstrip": true, "lstrip": true, "decode": true, "split": true, "splitlines": true, "get": true,
		"pop": true, "partition": true, "rsplit": true, "encode": true, "replace": true, "open": true, "items": true, "values": true,
	}
	passThroughCalls = map[string]bool{"int": true, "str": true, "float": true, "abs": true, "list": true, "set": true, "sorted": true, "tuple": true, "next": true, "iter": true}
)

// maxOriginDepth bounds how far origin follows names and helpers.
const maxOriginDepth = 6

// origin tells where the value of expression n comes from.
func (f dataflow) origin(n int32, depth int) origin {
	n = f.strip(n)
	if n == none || depth > maxOriginDepth {
		return origin{kind: opaque}
	}
	switch f.kind(n) {
	case "integer", "none", "true", "false", "string":
		return origin{kind: literal}
	case "unary_operator", "await", "list_splat":
		return f.origin(f.t.NamedChild(n, 0), depth)
	case "binary_operator":
		return worst(f.origin(f.field(n, "left"), depth), f.origin(f.field(n, "right"), depth))
	case "conditional_expression":
		return worst(f.origin(f.t.NamedChild(n, 0), depth), f.origin(f.t.NamedChild(n, 2), depth))
	case "subscript":
		if f.qual(f.field(n, "value")) == "os.environ" {
			return origin{kind: external, what: "the environment", at: n}
		}
		o := f.origin(f.field(n, "value"), depth)
		if o.kind == opaque && f.restoredState(f.field(n, "value"), f.field(n, "subscript")) {
			return origin{kind: external, what: "restored state", at: n}
		}
		return o
	case "attribute":
		return f.attrOrigin(n, depth)
	case "identifier":
		return f.nameOrigin(n, depth)
	case "call":
		return f.callOrigin(n, depth)
	case "list_comprehension", "set_comprehension", "generator_expression":
		return f.origin(f.field(n, "body"), depth)
	case "list", "tuple", "set", "expression_list":
		o := origin{kind: literal}
		for c := range f.t.NamedChildren(n) {
			o = worst(o, f.origin(c, depth))
		}
		return o
	}
	return origin{kind: opaque}
}

// callOrigin is the origin of a call's result.
func (f dataflow) callOrigin(call int32, depth int) origin {
	name := f.callee(call)
	switch {
	case ownCalls[name] || strings.HasPrefix(name, "os.spawn") || strings.HasPrefix(name, "multiprocessing."):
		return origin{kind: own}
	case storageCalls[name] != "":
		return origin{kind: external, what: storageCalls[name], at: call}
	case passThroughCalls[name] || name == "psutil.Process":
		return f.origin(f.arg(call, 0, ""), depth)
	}
	if m, recv := f.methodCall(call); m != "" {
		switch {
		case readMethods[m] && !strings.Contains(f.text(recv), "stdout") && !strings.Contains(f.text(recv), "stderr"):
			return origin{kind: external, what: "a file", at: call}
		case m == "Process" || m == "Popen" || m == "create_subprocess_exec" || m == "create_subprocess_shell":
			return origin{kind: own}
		case m == "get" && f.origin(recv, depth).kind == opaque && f.restoredState(recv, f.arg(call, 0, "")):
			return origin{kind: external, what: "restored state", at: call}
		case passThrough[m]:
			return f.origin(recv, depth)
		}
	}
	o := origin{kind: opaque}
	defs := f.defsOf(call)
	for _, def := range defs {
		r := f.returnsOrigin(def, depth+1)
		if len(defs) == 1 || r.kind == external {
			o = r
		}
		if r.kind == external {
			break
		}
	}
	return o
}

// stateWords name a function or parameter that restores persisted
// state: load_state(self, state), from_dict(data), restore(info).
var stateWords = []string{"state", "load", "restore", "from_"}

// restoredState reports whether obj[key] reads a PID ("pid" in the key)
// from a parameter that a function restoring persisted state receives:
// the parameter or its function is named so (load_state(self, state)).
func (f dataflow) restoredState(obj, key int32) bool {
	k, ok := f.str(key)
	if !ok || !strings.Contains(strings.ToLower(k), "pid") {
		return false
	}
	obj = f.strip(obj)
	fn := f.function(obj)
	if f.kind(obj) != "identifier" || fn == none || indexOf(f.params(fn), f.text(obj)) < 0 {
		return false
	}
	for _, w := range stateWords {
		if strings.Contains(strings.ToLower(f.text(obj)), w) || strings.Contains(strings.ToLower(f.text(f.field(fn, "name"))), w) {
			return true
		}
	}
	return false
}

// returnsOrigin is the worst origin of what the function returns or
// yields.
func (f dataflow) returnsOrigin(fn int32, depth int) origin {
	o := origin{kind: literal}
	seen := false
	f.eachIn(f.field(fn, "body"), func(i int32) {
		if k := f.kind(i); k == "return_statement" || k == "yield" {
			seen = true
			if v := f.t.NamedChild(i, 0); v != none {
				o = worst(o, f.origin(v, depth))
			}
		}
	})
	if !seen {
		return origin{kind: opaque}
	}
	return o
}

// attrOrigin is the origin of x.attr: the .pid of an own process is own;
// self.attr is whatever the class assigns it anywhere (or its property
// returns); os.environ is the environment.
func (f dataflow) attrOrigin(n int32, depth int) origin {
	obj, attr := f.field(n, "object"), f.attrName(n)
	if f.qual(n) == "os.environ" {
		return origin{kind: external, what: "the environment", at: n}
	}
	if f.isName(obj, "self") || f.isName(obj, "cls") {
		return f.selfAttrOrigin(n, attr, depth)
	}
	return f.origin(obj, depth+1)
}

// selfAttrOrigin is the worst origin of the values the class of n assigns
// to self.attr, or returns from its property attr.
func (f dataflow) selfAttrOrigin(n int32, attr string, depth int) origin {
	class := f.class(n)
	if class == none {
		return origin{kind: opaque}
	}
	o, seen := origin{kind: literal}, false
	for _, id := range f.names[attr] {
		if !f.t.Contains(class, id) {
			continue
		}
		a := f.parent(id)
		if f.kind(a) == "attribute" && f.isName(f.field(a, "object"), "self") {
			if as := f.parent(a); f.kind(as) == "assignment" && f.field(as, "left") == a {
				o, seen = worst(o, f.origin(f.field(as, "right"), depth+1)), true
			}
		}
		if f.inDefName(id) && f.kind(a) == "function_definition" {
			o, seen = worst(o, f.returnsOrigin(a, depth+1)), true
		}
	}
	if !seen {
		return origin{kind: opaque}
	}
	return o
}

// nameOrigin is the worst origin of the values the name n is bound to in
// its scope (assignments, for and with targets, walrus, comprehension
// variables), or, for a parameter, of the arguments the file's calls of
// its function pass; failing both, of the module's bindings.
func (f dataflow) nameOrigin(n int32, depth int) origin {
	name := f.text(n)
	if q := f.qual(n); q != "" {
		return origin{kind: opaque}
	}
	if comp := f.enclosing(n, "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension"); comp != none {
		for c := range f.t.NamedChildren(comp) {
			if f.kind(c) == "for_in_clause" && f.binds(f.field(c, "left"), name) {
				return f.origin(f.field(c, "right"), depth+1)
			}
		}
	}
	scope := f.scope(n)
	o, seen := f.bindingsOrigin(scope, name, depth)
	if seen {
		return o
	}
	if scope != 0 {
		if i := indexOf(f.params(scope), name); i >= 0 {
			return f.paramOrigin(scope, i, name, depth)
		}
		if o, seen := f.bindingsOrigin(0, name, depth); seen {
			return o
		}
	}
	return origin{kind: opaque}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
