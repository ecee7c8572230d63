package python

// bindingsOrigin is the worst origin of the values scope (a function, or
// 0 for the module) binds to name, and whether it binds it at all.
func (f dataflow) bindingsOrigin(scope int32, name string, depth int) (origin, bool) {
	o, seen := origin{kind: literal}, false
	for _, id := range f.names[name] {
		if f.scope(id) != scope || (scope != 0 && !f.t.Contains(scope, id)) {
			continue
		}
		v, ok := f.boundValue(id, depth)
		if ok {
			o, seen = worst(o, v), true
		}
	}
	return o, seen
}

// boundValues are the expressions scope binds to name (as boundValue
// finds them).
func (f *file) boundValues(scope int32, name string) []int32 {
	var out []int32
	for _, id := range f.names[name] {
		if f.scope(id) != scope {
			continue
		}
		for child, p := id, f.parent(id); p != none; child, p = p, f.parent(p) {
			k := f.kind(p)
			if k == "pattern_list" || k == "tuple_pattern" || k == "as_pattern_target" {
				continue
			}
			switch {
			case (k == "assignment" || k == "for_statement" || k == "for_in_clause") && f.field(p, "left") == child:
				out = append(out, f.field(p, "right"))
			case k == "named_expression" && f.field(p, "name") == child:
				out = append(out, f.field(p, "value"))
			case k == "as_pattern" && f.field(p, "alias") == child:
				out = append(out, f.t.NamedChild(p, 0))
			}
			break
		}
	}
	return out
}

// boundValue is the origin of the value bound to the identifier id when
// id is a target: of an assignment (also in a tuple), a walrus, a for
// loop (the iterable's), a with item (the context's).
func (f dataflow) boundValue(id int32, depth int) (origin, bool) {
	for child, p := id, f.parent(id); p != none; child, p = p, f.parent(p) {
		switch f.kind(p) {
		case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression", "list_splat_pattern", "as_pattern_target":
			continue
		case "assignment", "augmented_assignment":
			if f.field(p, "left") == child {
				return f.origin(f.field(p, "right"), depth+1), true
			}
		case "named_expression":
			if f.field(p, "name") == child {
				return f.origin(f.field(p, "value"), depth+1), true
			}
		case "for_statement":
			if f.field(p, "left") == child {
				return f.origin(f.field(p, "right"), depth+1), true
			}
		case "as_pattern":
			if f.field(p, "alias") == child {
				return f.origin(f.t.NamedChild(p, 0), depth+1), true
			}
		}
		return origin{}, false
	}
	return origin{}, false
}

// binds reports whether the target pattern binds name.
func (f *file) binds(target int32, name string) bool {
	found := false
	f.each(target, func(i int32) bool {
		found = found || f.isName(i, name)
		return !found
	})
	return found
}

// maxParamCalls bounds the calls of a function whose arguments origin
// reads for one of its parameters.
const maxParamCalls = 16

// paramOrigin is the worst origin of the arguments the file's calls of
// the function fn pass for its i-th parameter (named name).
func (f dataflow) paramOrigin(fn int32, i int, name string, depth int) origin {
	if f.params(fn) != nil && len(f.params(fn)) > 0 && (f.params(fn)[0] == "self" || f.params(fn)[0] == "cls") {
		i-- // x.method(a) passes a as the second parameter
	}
	o, seen := origin{kind: literal}, 0
	for _, ref := range f.references(fn) {
		call := f.parent(ref)
		if f.kind(call) == "attribute" {
			call = f.parent(call)
		}
		if f.kind(call) != "call" || f.t.Contains(fn, call) {
			continue
		}
		if seen++; seen > maxParamCalls {
			break
		}
		if a := f.arg(call, i, name); a != none && i >= 0 {
			o = worst(o, f.origin(a, depth+1))
		}
	}
	if seen == 0 {
		return origin{kind: opaque}
	}
	return o
}
