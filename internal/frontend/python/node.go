package python

import (
	"strings"

	"github.com/pidlint/pidlint/internal/frontend/python/pyparse"
)

// none is the index of no node.
const none = pyparse.None

// The tree helpers below read a file's syntax tree the way the rules ask
// about it: a node's kind, its fields, its scopes.

// kind, text and parent take none as well, for a field the node lacks.
func (f *file) kind(n int32) string {
	if n == none {
		return ""
	}
	return f.t.Kind(n)
}

func (f *file) text(n int32) string {
	if n == none {
		return ""
	}
	return f.t.Text(n)
}

func (f *file) parent(n int32) int32 {
	if n == none {
		return none
	}
	return f.t.Nodes[n].Parent
}

func (f *file) field(n int32, name string) int32 {
	if n == none {
		return none
	}
	return f.t.ChildByField(n, name)
}

// args are a call's positional arguments (no keywords, no *args).
func (f *file) args(call int32) []int32 {
	var out []int32
	for c := range f.t.NamedChildren(f.field(call, "arguments")) {
		switch f.kind(c) {
		case "keyword_argument", "list_splat", "dictionary_splat":
		default:
			out = append(out, c)
		}
	}
	return out
}

// arg is a call's i-th positional argument, or else its keyword argument
// name, or none.
func (f *file) arg(call int32, i int, name string) int32 {
	if as := f.args(call); i < len(as) {
		return as[i]
	}
	for c := range f.t.NamedChildren(f.field(call, "arguments")) {
		if f.kind(c) == "keyword_argument" && f.text(f.field(c, "name")) == name {
			return f.field(c, "value")
		}
	}
	return none
}

// strip drops parentheses around an expression.
func (f *file) strip(n int32) int32 {
	for n != none && f.kind(n) == "parenthesized_expression" {
		n = f.t.NamedChild(n, 0)
	}
	return n
}

// inError reports whether n is inside an ERROR node: what the parser could
// not read is not reported on.
func (f *file) inError(n int32) bool {
	for ; n != none; n = f.parent(n) {
		if f.t.IsError(n) {
			return true
		}
	}
	return false
}

// enclosing returns the nearest ancestor of n (not n) of one of the
// kinds, or none.
func (f *file) enclosing(n int32, kinds ...string) int32 {
	for n = f.parent(n); n != none; n = f.parent(n) {
		for _, k := range kinds {
			if f.kind(n) == k {
				return n
			}
		}
	}
	return none
}

// function is the function definition n is in, or none at module level.
func (f *file) function(n int32) int32 {
	return f.enclosing(n, "function_definition", "lambda")
}

// class is the class whose body holds n, directly or in a method, or none.
func (f *file) class(n int32) int32 {
	c := f.enclosing(n, "class_definition")
	if c == none {
		return none
	}
	// A class nested in a function of another class belongs to it.
	return c
}

// scope is where n's names live: its function, or else the module.
func (f *file) scope(n int32) int32 {
	if fn := f.function(n); fn != none {
		return fn
	}
	return 0
}

// each calls fn for every node of n's subtree, n first, in source order;
// fn returns false to skip a node's subtree.
func (f *file) each(n int32, fn func(int32) bool) {
	end := f.t.End(n)
	for i := n; i < end; {
		if fn(i) {
			i++
		} else {
			i = f.t.End(i)
		}
	}
}

// eachIn is each over n's subtree without entering nested functions and
// classes (other scopes), n itself excepted.
func (f *file) eachIn(n int32, fn func(int32)) {
	f.each(n, func(i int32) bool {
		if i != n {
			switch f.kind(i) {
			case "function_definition", "lambda", "class_definition":
				return false
			}
		}
		fn(i)
		return true
	})
}

// str returns the value of a plain string literal (no interpolation), and
// whether n is one. Prefixes (b, r, u) are dropped; escapes are kept as
// written, which is enough for the paths and modes the rules read.
func (f *file) str(n int32) (string, bool) {
	n = f.strip(n)
	if n == none || f.kind(n) != "string" {
		return "", false
	}
	var b strings.Builder
	for c := range f.t.Children(n) {
		switch f.kind(c) {
		case "string_content", "escape_sequence":
			b.WriteString(f.text(c))
		case "interpolation":
			return "", false
		}
	}
	return b.String(), true
}

// line is n's line, from 1.
func (f *file) line(n int32) int { return int(f.t.Nodes[n].Row) + 1 }

// isName reports whether n is the identifier name.
func (f *file) isName(n int32, name string) bool {
	n = f.strip(n)
	return n != none && f.kind(n) == "identifier" && f.text(n) == name
}

// attrName returns the attribute of an attribute node (x.NAME), or "".
func (f *file) attrName(n int32) string {
	if n == none || f.kind(n) != "attribute" {
		return ""
	}
	return f.text(f.field(n, "attribute"))
}

// methodCall returns the method name and receiver of a call x.m(...), or
// "" and none.
func (f *file) methodCall(call int32) (string, int32) {
	fn := f.field(call, "function")
	if m := f.attrName(fn); m != "" {
		return m, f.field(fn, "object")
	}
	return "", none
}
