package python

import (
	"strings"
	"sync"

	"github.com/pidlint/pidlint/internal/frontend/python/pyparse"
	"github.com/pidlint/pidlint/internal/rules"
)

// A file is one parsed Python file and what the rules look up in it more
// than once: what its imports bind, its functions, where each name
// occurs.
type file struct {
	name string // absolute
	t    *pyparse.Tree
	// imports maps a name the file binds by import to the dotted name it
	// stands for: "os" for import os, "os.kill" for from os import kill,
	// "psutil" for import psutil as ps (under "ps").
	imports map[string]string
	// importStmts are the import statements binding each name.
	importStmts map[string][]int32
	// funcs are the function definitions by name: module-level
	// functions, methods and nested functions alike.
	funcs map[string][]int32
	// names are the identifier nodes by text (attributes' names too).
	names map[string][]int32
	calls []int32 // every call
	// loader reads the other files of the run that evidence needs
	// (importers, modules of the package); nil for none.
	loader *loader

	posixOnce sync.Once
	posix     bool // posixOnly's answer
}

// newFile indexes a parsed file.
func newFile(name string, t *pyparse.Tree, l *loader) *file {
	f := &file{name: name, t: t, imports: map[string]string{}, importStmts: map[string][]int32{},
		funcs: map[string][]int32{}, names: map[string][]int32{}, loader: l}
	for i := range t.Nodes {
		n := int32(i)
		switch t.Kind(n) {
		case "identifier":
			f.names[f.text(n)] = append(f.names[f.text(n)], n)
		case "call":
			f.calls = append(f.calls, n)
		case "function_definition":
			name := f.text(f.field(n, "name"))
			f.funcs[name] = append(f.funcs[name], n)
		case "import_statement", "import_from_statement":
			f.addImport(n)
		}
	}
	return f
}

// addImport records what an import statement binds.
func (f *file) addImport(n int32) {
	bind := func(name, full string) {
		f.imports[name] = full
		f.importStmts[name] = append(f.importStmts[name], n)
	}
	module := ""
	if f.kind(n) == "import_from_statement" {
		module = f.text(f.field(n, "module_name"))
	}
	for c := range f.t.NamedChildren(n) {
		if f.t.Field(c) != "name" {
			continue
		}
		dotted, alias := c, ""
		if f.kind(c) == "aliased_import" {
			dotted, alias = f.field(c, "name"), f.text(f.field(c, "alias"))
		}
		full := f.text(dotted)
		switch {
		case module != "":
			bind(orStr(alias, full), module+"."+full)
		case alias != "":
			bind(alias, full)
		default:
			// import os.path binds os.
			root, _, _ := strings.Cut(full, ".")
			bind(root, root)
		}
	}
}

func orStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// qual returns the dotted name an expression stands for when its root is
// an import: "os.kill" for os.kill, k (from os import kill as k) or
// _os.kill (import os as _os); "" otherwise.
func (f *file) qual(n int32) string {
	n = f.strip(n)
	if n == none {
		return ""
	}
	switch f.kind(n) {
	case "identifier":
		return f.imports[f.text(n)]
	case "attribute":
		if obj := f.qual(f.field(n, "object")); obj != "" {
			return obj + "." + f.attrName(n)
		}
	}
	return ""
}

// callee is the qualified name of a call's function ("os.kill"), or for a
// builtin or a function of the file its bare name ("int", "read_pid").
func (f *file) callee(call int32) string {
	fn := f.field(call, "function")
	if q := f.qual(fn); q != "" {
		return q
	}
	if f.kind(fn) == "identifier" {
		return f.text(fn)
	}
	return ""
}

// defsOf returns the function definitions a call may run: a function of
// the file named as the call's function, or a method of the file called
// as x.name(...) (any receiver).
func (f *file) defsOf(call int32) []int32 {
	fn := f.field(call, "function")
	switch f.kind(fn) {
	case "identifier":
		if _, imported := f.imports[f.text(fn)]; !imported {
			return f.funcs[f.text(fn)]
		}
	case "attribute":
		if f.qual(fn) == "" {
			return f.funcs[f.attrName(fn)]
		}
	}
	return nil
}

// params are a function's parameter names, in order, self included.
func (f *file) params(fn int32) []string {
	var out []string
	for p := range f.t.NamedChildren(f.field(fn, "parameters")) {
		switch f.kind(p) {
		case "identifier":
			out = append(out, f.text(p))
		case "default_parameter", "typed_parameter", "typed_default_parameter":
			name := f.field(p, "name")
			if name == none {
				name = f.t.NamedChild(p, 0)
			}
			out = append(out, f.text(name))
		}
	}
	return out
}

// references are the places that name the function fn other than its own
// definition: calls and other uses (a callback, a dispatch assignment).
func (f *file) references(fn int32) []int32 {
	name := f.field(fn, "name")
	var out []int32
	for _, n := range f.names[f.text(name)] {
		if n != name && !f.inDefName(n) {
			out = append(out, n)
		}
	}
	return out
}

// inDefName reports whether the identifier n names a definition (def x).
func (f *file) inDefName(n int32) bool {
	p := f.parent(n)
	return p != none && (f.kind(p) == "function_definition" || f.kind(p) == "class_definition") && f.t.Field(n) == "name"
}

// directives are the file's ignore directives, from its comments.
func (f *file) directives() []*rules.Directive {
	var ds []*rules.Directive
	for i := range f.t.Nodes {
		if n := int32(i); f.kind(n) == "comment" {
			if d, ok := rules.ParseDirective(rules.Python, f.text(n), f.line(n)); ok {
				ds = append(ds, d)
			}
		}
	}
	return ds
}

// syntaxError returns the line of the file's first syntax error, or 0.
// PEP 696 type-parameter defaults (def f[T = int]), which the grammar
// does not know yet, are Python 3.13, not an error.
func (f *file) syntaxError() int {
	if !f.t.HasError(0) {
		return 0
	}
	for i := range f.t.Nodes {
		n := int32(i)
		if !f.t.IsError(n) {
			continue
		}
		if p := f.parent(n); p != none && (f.kind(p) == "type_parameter" || f.kind(p) == "type_parameters") {
			continue
		}
		return f.line(n)
	}
	return 0
}
