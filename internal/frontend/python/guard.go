package python

import "strings"

// offWindows reports whether Windows cannot reach node n: an enclosing
// branch or an earlier exit tests the platform, its function runs only
// from such places in the file, the name it calls is bound only off
// Windows, or its file cannot be imported on Windows (posixonly.go).
func (f platforms) offWindows(n int32) bool {
	return f.guarded(n, 0, map[int32]bool{}) || f.posixOnly()
}

// guarded is offWindows within the file. depth bounds the callers it
// follows; seen holds the functions on the way, against recursion.
func (f platforms) guarded(n int32, depth int, seen map[int32]bool) bool {
	if f.kind(n) == "call" {
		if fn := f.field(n, "function"); f.kind(fn) == "identifier" {
			for _, imp := range f.importStmts[f.text(fn)] {
				if f.guarded(imp, depth, seen) {
					return true // from os import kill, only off Windows
				}
			}
		}
	}
	for child, a := n, f.parent(n); a != none; child, a = a, f.parent(a) {
		switch f.kind(a) {
		case "if_statement":
			if f.branchOffWindows(a, child) {
				return true
			}
		case "conditional_expression":
			// x if cond else y
			x, cond := f.t.NamedChild(a, 0), f.t.NamedChild(a, 1)
			if v := f.onWin(cond, 0); (child == x && v == offWindows) || (child != x && child != cond && v == onWindows) {
				return true
			}
		case "boolean_operator":
			if child == f.field(a, "right") {
				v := f.onWin(f.field(a, "left"), 0)
				and := f.text(f.field(a, "operator")) == "and"
				if (and && v == offWindows) || (!and && v == onWindows) {
					return true
				}
			}
		case "block", "module":
			if f.exitsOnWindows(a, child) {
				return true
			}
		case "function_definition":
			if f.callersGuarded(a, depth, seen) {
				return true
			}
		}
	}
	return false
}

// branchOffWindows reports whether the branch of the if statement that
// holds child runs only off Windows.
func (f platforms) branchOffWindows(stmt, child int32) bool {
	if child == f.field(stmt, "consequence") {
		return f.onWin(f.field(stmt, "condition"), 0) == offWindows
	}
	if f.kind(child) != "elif_clause" && f.kind(child) != "else_clause" {
		return false
	}
	// An earlier condition true on Windows takes Windows away from the
	// branches after it.
	if f.onWin(f.field(stmt, "condition"), 0) == onWindows {
		return true
	}
	for c := range f.t.Children(stmt) {
		if c == child {
			break
		}
		if f.kind(c) == "elif_clause" && f.onWin(f.field(c, "condition"), 0) == onWindows {
			return true
		}
	}
	return f.kind(child) == "elif_clause" && f.onWin(f.field(child, "condition"), 0) == offWindows
}

// exitsOnWindows reports whether a statement of block before child stops
// Windows from getting there: if <Windows>: return/raise/…, assert <not
// Windows>, or an import of a module Windows lacks.
func (f platforms) exitsOnWindows(block, child int32) bool {
	for s := range f.t.NamedChildren(block) {
		if s == child {
			return false
		}
		switch f.kind(s) {
		case "if_statement":
			if f.onWin(f.field(s, "condition"), 0) == onWindows && f.exits(f.field(s, "consequence")) {
				return true
			}
		case "assert_statement":
			if f.onWin(f.t.NamedChild(s, 0), 0) == offWindows {
				return true
			}
		case "import_statement", "import_from_statement":
			if posixModule(f.importedModule(s)) {
				return true
			}
		}
	}
	return false
}

// exits reports whether a block always leaves its function or loop: its
// last statement returns, raises, exits or continues.
func (f platforms) exits(block int32) bool {
	var last int32 = none
	for s := range f.t.NamedChildren(block) {
		last = s
	}
	if last == none {
		return false
	}
	switch f.kind(last) {
	case "return_statement", "raise_statement", "continue_statement", "break_statement":
		return true
	case "expression_statement":
		if call := f.t.NamedChild(last, 0); f.kind(call) == "call" {
			switch f.callee(call) {
			case "sys.exit", "os._exit", "exit", "quit":
				return true
			}
		}
	}
	return false
}

// maxCallerDepth is how many calls up the file the guard search follows.
const maxCallerDepth = 3

// callersGuarded reports whether every reference to the function fn in
// the file is itself off Windows, and there is one: a function nobody in
// the file calls may be called from anywhere.
func (f platforms) callersGuarded(fn int32, depth int, seen map[int32]bool) bool {
	if depth >= maxCallerDepth || seen[fn] {
		return false
	}
	refs := f.references(fn)
	if len(refs) == 0 {
		return false
	}
	seen[fn] = true
	defer delete(seen, fn)
	outside := 0
	for _, r := range refs {
		if f.t.Contains(fn, r) {
			continue // recursion
		}
		outside++
		if !f.guarded(r, depth+1, seen) && !f.inDeadHelper(r) {
			return false
		}
	}
	return outside > 0
}

// inDeadHelper reports whether n is in a private function of the module
// (_name) that nothing in the file names: code no one runs, or only tests.
func (f platforms) inDeadHelper(n int32) bool {
	fn := f.function(n)
	if fn == none || f.class(fn) != none {
		return false
	}
	name := f.text(f.field(fn, "name"))
	return strings.HasPrefix(name, "_") && !strings.HasPrefix(name, "__") && len(f.references(fn)) == 0
}
