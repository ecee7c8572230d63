package python

import (
	"slices"

	"github.com/pidlint/pidlint/internal/rules"
)

// A checker runs the rules over one file.
type checker struct {
	f       *file
	strict  bool
	disable []string
	found   []report
}

// A report is one finding of a rule, before positions are resolved.
type report struct {
	rule string
	node int32
	msg  string
}

// report records a finding of rule at node n, unless the rule is off or
// n is in a part of the file that did not parse.
func (c *checker) report(rule string, n int32, msg string) {
	if slices.Contains(c.disable, rule) || c.f.inError(n) {
		return
	}
	c.found = append(c.found, report{rule: rule, node: n, msg: rule + ": " + msg})
}

// run checks every call of the file.
func (c *checker) run() {
	for _, call := range c.f.calls {
		switch c.f.callee(call) {
		case "os.kill":
			c.checkKill(call)
			c.checkSignal(call)
			continue
		case "os.killpg":
			c.checkSignal(call)
			continue
		}
		c.checkSignal(call)
		c.checkCreate(call)
		c.checkProc(call)
	}
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
