package shell

import (
	"slices"
	"strings"
)

// A value is what the analysis knows of where the text of a word, a
// variable or a command's output comes from. The zero value knows
// nothing: a constant, an argument, a command's output it does not follow.
type value struct {
	files  []origin // the files it was read from
	own    bool     // a PID of a child the script started ($!, jobs -p, a file written from $!)
	self   bool     // the shell's own PID ($$)
	consts []string // the constant texts assigned, for a command word such as $KILL
	ident  *ident   // it is a process's name or start time, read from ps or /proc
}

// An origin is a file a value was read from.
type origin struct {
	file  string // the file's word as written: "$PIDFILE", /run/app.pid
	key   string // the word as compared: quotes and braces dropped
	line  int    // where it was read
	param int    // the file is the positional parameter $N of its function; 0 if not
}

// An ident is a process's data read to be compared: its name, command line
// or executable (ps -o comm=, /proc/PID/cmdline, readlink /proc/PID/exe),
// or its start time (ps -o lstart=, /proc/PID/stat).
type ident struct {
	pidVar string   // the variable holding the PID asked about, "" if none
	files  []string // the keys of the files that PID was read from
	start  bool     // the start time: an identity; else a name
}

// fromFile is the value of text read from the file word f.
func fromFile(f origin) value { return value{files: []origin{f}} }

// pidFile reports whether the value holds a PID read from a file.
func (v value) pidFile() bool { return len(v.files) > 0 }

// union is what a value is when it may come from either.
func union(a, b value) value {
	switch {
	case b.unknown():
		return a
	case a.unknown():
		return b
	}
	out := value{own: a.own || b.own, self: a.self || b.self}
	out.files = slices.Clone(a.files)
	for _, o := range b.files {
		if !slices.ContainsFunc(out.files, func(p origin) bool { return p.key == o.key }) {
			out.files = append(out.files, o)
		}
	}
	out.consts = slices.Clone(a.consts)
	for _, c := range b.consts {
		if !slices.Contains(out.consts, c) {
			out.consts = append(out.consts, c)
		}
	}
	out.ident = a.ident
	if out.ident == nil {
		out.ident = b.ident
	}
	return out
}

// unknown reports whether v is the zero value, which knows nothing.
func (v value) unknown() bool {
	return len(v.files) == 0 && !v.own && !v.self && len(v.consts) == 0 && v.ident == nil
}

// equal reports whether a and b say the same, so that the rounds over
// the functions stop when nothing changes.
func equal(a, b value) bool {
	return a.own == b.own && a.self == b.self && slices.Equal(a.consts, b.consts) && (a.ident == nil) == (b.ident == nil) &&
		slices.EqualFunc(a.files, b.files, func(x, y origin) bool { return x.key == y.key && x.param == y.param })
}

// fileKey is how two words naming a file compare: "${PIDFILE}" and
// $PIDFILE are one file.
func fileKey(text string) string { return keyReplacer.Replace(text) }

var keyReplacer = strings.NewReplacer(`"`, "", `'`, "", "{", "", "}", "")

// fileNames lists the files of v as messages name them.
func (v value) fileNames() string {
	var names []string
	for _, o := range v.files {
		names = append(names, o.file)
	}
	return strings.Join(names, " or ")
}
