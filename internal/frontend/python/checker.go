package python

import "slices"

// A checker runs the rules over one file.
type checker struct {
	f       dataflow
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
			checkKill(c, call)
			checkSignal(c, call)
			continue
		case "os.killpg":
			checkSignal(c, call)
			continue
		}
		checkSignal(c, call)
		checkCreate(c, call)
		checkProc(c, call)
	}
}
