package pidflow

import "go/token"

// A kind is what a label says of a value.
type kind uint8

const (
	stored   kind = iota // a stored PID, or data holding one
	identity             // the identity of the process a stored PID names
	answer               // a liveness probe's answer for a stored PID
	exists               // os.Stat's error for a path that names a PID file
	ownPID               // the process's own PID
	fileOf               // a file, or a lock object, for the path key
)

// A label is one fact about a value. Who it is about is either a Source
// (src) or, while a function is summarized, one of its parameters at an
// access path below it (param >= 0, path).
type label struct {
	kind  kind
	src   *Source
	param int
	path  string
	// pol is, for an answer, +1 when nil (an error) or true (a bool)
	// means alive and -1 when it means dead; for exists, +1 when nil
	// means the file exists. For identity it is the check it allows.
	pol int
	pos token.Pos // answer, exists: the probe
	key string    // fileOf: the path key
}

// of returns a label of kind k about the same source or parameter as l.
func (l label) of(k kind) label {
	return label{kind: k, src: l.src, param: l.param, path: l.path}
}

// aboutPID reports whether the label names a stored PID: a Source's, or
// a parameter's while summarizing.
func (l label) aboutPID() bool { return l.kind == stored }

func storedLabel(src *Source) label { return label{kind: stored, src: src, param: -1} }

func paramLabel(i int, path string) label { return label{kind: stored, param: i, path: path} }

// labels is a small set of labels.
type labels []label

func (ls labels) has(l label) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// add adds l and reports whether it was new.
func (ls *labels) add(l label) bool {
	if ls.has(l) {
		return false
	}
	*ls = append(*ls, l)
	return true
}

// addAll adds every label of o and reports whether one was new.
func (ls *labels) addAll(o labels) bool {
	if len(o) == 0 {
		return false
	}
	if len(*ls)*len(o) <= 64 {
		changed := false
		for _, l := range o {
			changed = ls.add(l) || changed
		}
		return changed
	}
	// Large sets (a value every path of a big function reaches): index
	// what is there, as a linear search per label is quadratic.
	have := make(map[label]bool, len(*ls)+len(o))
	for _, l := range *ls {
		have[l] = true
	}
	changed := false
	for _, l := range o {
		if !have[l] {
			have[l] = true
			*ls = append(*ls, l)
			changed = true
		}
	}
	return changed
}

// ofKind returns the labels of kind k.
func (ls labels) ofKind(k kind) labels {
	var out labels
	for _, l := range ls {
		if l.kind == k {
			out = append(out, l)
		}
	}
	return out
}
