package pidflow

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A place is where labels live: a root value (a register, an allocation,
// a global, a parameter) and an access path below it. A path is a string
// of steps: ".N" field N, "[]" an element (of a slice, array, map or
// channel), "*" what a pointer points to, "&" the address of what the
// path before it names, "#N" result N of a call.
type place struct {
	root ssa.Value
	path string
}

// maxSteps bounds a path; a longer one stands for its prefix.
const maxSteps = 8

func (p place) plus(steps string) place { return place{p.root, join(p.path, steps)} }

// join appends steps to path: "&*" (what an address points to) cancels
// out, and a path is cut at maxSteps steps.
func join(path, steps string) string {
	s := path + steps
	for strings.Contains(s, "&*") {
		s = strings.Replace(s, "&*", "", 1)
	}
	if n := stepCount(s); n > maxSteps {
		s = prefixOf(s, maxSteps)
	}
	return s
}

// stepCount is the number of steps in a path.
func stepCount(path string) int {
	n := 0
	for i := 0; i < len(path); i = nextStep(path, i) {
		n++
	}
	return n
}

// nextStep returns the index after the step that starts at i.
func nextStep(path string, i int) int {
	switch path[i] {
	case '*', '&':
		return i + 1
	case '[':
		return i + 2
	}
	j := i + 1 // ".N" or "#N"
	for j < len(path) && path[j] >= '0' && path[j] <= '9' {
		j++
	}
	return j
}

// prefixOf returns the first n steps of path.
func prefixOf(path string, n int) string {
	i := 0
	for ; n > 0 && i < len(path); n-- {
		i = nextStep(path, i)
	}
	return path[:i]
}

// prefixes calls f with every prefix of path at a step boundary, the
// empty one and path itself included.
func prefixes(path string, f func(string)) {
	f("")
	for i := 0; i < len(path); {
		i = nextStep(path, i)
		f(path[:i])
	}
}

// under reports whether path lies below base (or is base), at a step
// boundary.
func under(path, base string) bool {
	if !strings.HasPrefix(path, base) {
		return false
	}
	if len(path) == len(base) || base == "" {
		return true
	}
	// base must end at a step boundary of path.
	for i := 0; i < len(path); i = nextStep(path, i) {
		if i == len(base) {
			return true
		}
	}
	return false
}

func fieldStep(i int) string  { return "." + strconv.Itoa(i) }
func resultStep(i int) string { return "#" + strconv.Itoa(i) }

// content is the place that holds v's value: v itself for most values;
// for a load, the place its address names; for a field or element of a
// value, the place of the value plus the step.
func (u *unit) content(v ssa.Value) place {
	switch v := v.(type) {
	case *ssa.UnOp:
		switch v.Op {
		case token.MUL:
			return u.pointee(v.X)
		case token.ARROW:
			if !v.CommaOk {
				return u.content(v.X).plus("[]")
			}
		}
	case *ssa.Field:
		return u.content(v.X).plus(fieldStep(v.Field))
	case *ssa.Index:
		return u.content(v.X).plus("[]")
	case *ssa.Lookup:
		if !v.CommaOk {
			return u.content(v.X).plus("[]")
		}
	case *ssa.Range:
		return u.content(v.X)
	case *ssa.Slice:
		if isPointerToArray(v.X.Type()) {
			return u.pointee(v.X)
		}
		return u.content(v.X)
	case *ssa.Extract:
		return u.extract(v)
	case *ssa.Alloc, *ssa.Global, *ssa.FieldAddr, *ssa.IndexAddr:
		return u.cell(v).plus("&")
	case *ssa.FreeVar:
		if b, ok := u.bindings[v]; ok {
			return u.content(b)
		}
	}
	return place{v, ""}
}

// extract is the place of one value of a tuple.
func (u *unit) extract(v *ssa.Extract) place {
	switch t := v.Tuple.(type) {
	case *ssa.Next:
		if !t.IsString && v.Index > 0 {
			return u.content(t.Iter).plus("[]") // a map's key or value
		}
	case *ssa.Lookup:
		if v.Index == 0 {
			return u.content(t.X).plus("[]")
		}
	case *ssa.UnOp:
		if t.Op == token.ARROW && v.Index == 0 {
			return u.content(t.X).plus("[]")
		}
	case *ssa.TypeAssert:
		if v.Index == 0 {
			return u.content(t.X)
		}
	}
	return u.content(v.Tuple).plus(resultStep(v.Index))
}

// cell is the place an address names: an allocation, a global, a field or
// element of one, or what a pointer value points to.
func (u *unit) cell(v ssa.Value) place {
	switch v := v.(type) {
	case *ssa.Alloc, *ssa.Global:
		return place{v, ""}
	case *ssa.FieldAddr:
		return u.pointee(v.X).plus(fieldStep(v.Field))
	case *ssa.IndexAddr:
		if isPointerToArray(v.X.Type()) {
			return u.pointee(v.X).plus("[]")
		}
		return u.content(v.X).plus("[]")
	}
	return u.pointee(v)
}

// pointee is the place a pointer value points to.
func (u *unit) pointee(p ssa.Value) place {
	switch p.(type) {
	case *ssa.Alloc, *ssa.Global, *ssa.FieldAddr, *ssa.IndexAddr:
		return u.cell(p)
	}
	return u.content(p).plus("*")
}

// argPlace is, at a call, the place of the value a callee's summary
// names as path below the argument a.
func (u *unit) argPlace(a ssa.Value, path string) place { return u.content(a).plus(path) }

func isPointerToArray(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		_, ok := p.Elem().Underlying().(*types.Array)
		return ok
	}
	return false
}
