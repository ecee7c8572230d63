package pyparse

import "iter"

// Kind is node i's grammar name: "call", "identifier", "ERROR", or the
// text of an anonymous token ("(", "if", "==").
func (t *Tree) Kind(i int32) string {
	if k := t.Nodes[i].kind; k == 0xFFFF {
		return "ERROR"
	} else if int(k) < len(t.lang.symbols) {
		return t.lang.symbols[k]
	}
	return ""
}

// Field is the name of node i's field in its parent ("function",
// "arguments", "left"), or "".
func (t *Tree) Field(i int32) string {
	if f := t.Nodes[i].field; int(f) < len(t.lang.fields) {
		return t.lang.fields[f]
	}
	return ""
}

// Text is node i's source text.
func (t *Tree) Text(i int32) string {
	n := &t.Nodes[i]
	return string(t.Src[n.Start:n.End])
}

// Named reports whether node i is a named node of the grammar, not an
// anonymous token.
func (t *Tree) Named(i int32) bool { return t.Nodes[i].flags&flagNamed != 0 }

// IsError reports whether node i is an ERROR node or a MISSING token.
func (t *Tree) IsError(i int32) bool { return t.Nodes[i].flags&(flagError|flagMissing) != 0 }

// HasError reports whether node i is or holds an ERROR or MISSING node.
func (t *Tree) HasError(i int32) bool { return t.Nodes[i].flags&flagHasError != 0 }

// Children are node i's children, in order.
func (t *Tree) Children(i int32) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for c := t.Nodes[i].FirstChild; c != None; c = t.Nodes[c].NextSibling {
			if !yield(c) {
				return
			}
		}
	}
}

// NamedChildren are node i's named children (no punctuation, keywords
// or comments), in order.
func (t *Tree) NamedChildren(i int32) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for c := range t.Children(i) {
			if t.Named(c) && t.Kind(c) != "comment" && !yield(c) {
				return
			}
		}
	}
}

// ChildByField returns node i's first child in the field, or None.
func (t *Tree) ChildByField(i int32, field string) int32 {
	for c := range t.Children(i) {
		if t.Field(c) == field {
			return c
		}
	}
	return None
}

// NamedChild returns node i's n-th named child (from 0), or None.
func (t *Tree) NamedChild(i int32, n int) int32 {
	for c := range t.NamedChildren(i) {
		if n == 0 {
			return c
		}
		n--
	}
	return None
}

// End is the index after node i's last descendant: its subtree is the
// nodes i to End(i)-1.
func (t *Tree) End(i int32) int32 {
	for ; i != None; i = t.Nodes[i].Parent {
		if next := t.Nodes[i].NextSibling; next != None {
			return next
		}
	}
	return int32(len(t.Nodes))
}

// Contains reports whether node d is node a or one of its descendants.
func (t *Tree) Contains(a, d int32) bool { return d >= a && d < t.End(a) }

// FirstError returns the first ERROR or MISSING node in pre-order, or
// None when the file parsed cleanly.
func (t *Tree) FirstError() int32 {
	if len(t.Nodes) == 0 || !t.HasError(0) {
		return None
	}
	for i := range t.Nodes {
		if t.IsError(int32(i)) {
			return int32(i)
		}
	}
	return None
}
