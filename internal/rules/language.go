package rules

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
)

// A Language is one language pidlint checks: which files are its own,
// which of them are tests, and how its comments (and so its ignore
// directives) start. Its front end, registered with the command, checks
// its files; its rules are in the catalogue.
type Language struct {
	Name  string // as -languages and the config file name it
	Title string // as messages and docs name it
	Fence string // the info string of its examples' Markdown code blocks
	// Comment starts a line comment, and so an ignore directive: "//"
	// (//pidlint:ignore) or "#" (# pidlint:ignore).
	Comment string
	// Extensions are the file name extensions of its files.
	Extensions []string
	// Interpreters are the programs that make a file without an
	// extension one of its files when its "#!" line names them, directly
	// or through env.
	Interpreters []string
	// Packages: its front end resolves the command line's patterns
	// itself (Go's packages), so the walk does not look for its files.
	Packages bool
	// test reports whether a file, a slash path relative to the
	// repository's top, is one of its test files.
	test func(rel string) bool
}

// The languages.
var (
	Go = &Language{
		Name: "go", Title: "Go", Fence: "go", Comment: "//",
		Extensions: []string{".go"},
		Packages:   true,
		test:       func(rel string) bool { return strings.HasSuffix(rel, "_test.go") },
	}
	Python = &Language{
		Name: "python", Title: "Python", Fence: "python", Comment: "#",
		Extensions: []string{".py"},
		test: func(rel string) bool {
			base := path.Base(rel)
			return path.Ext(base) == ".py" && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") ||
				slices.Contains(strings.Split(path.Dir(rel), "/"), "tests"))
		},
	}
	Shell = &Language{
		Name: "shell", Title: "shell", Fence: "sh", Comment: "#",
		Extensions:   []string{".sh", ".bash", ".bats"},
		Interpreters: []string{"sh", "bash", "dash", "ksh"},
		test:         func(rel string) bool { return strings.HasSuffix(rel, ".bats") },
	}
)

// Languages are the languages pidlint knows, in the order runs check and
// messages list them.
var Languages = []*Language{Go, Python, Shell}

// LookupLanguage returns the language of the given name.
func LookupLanguage(name string) (*Language, bool) {
	i := slices.IndexFunc(Languages, func(l *Language) bool { return l.Name == name })
	if i < 0 {
		return nil, false
	}
	return Languages[i], true
}

// ParseLanguages parses language names, as -languages and the config
// file list them, into languages, each once.
func ParseLanguages(list []string) ([]*Language, error) {
	var langs []*Language
	for _, name := range list {
		l, ok := LookupLanguage(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("unknown language %q (languages: %s)", name, LanguageNames(Languages))
		}
		if !slices.Contains(langs, l) {
			langs = append(langs, l)
		}
	}
	return langs, nil
}

// LanguageNames lists the languages' names: "go, python, shell".
func LanguageNames(langs []*Language) string {
	var names []string
	for _, l := range langs {
		names = append(names, l.Name)
	}
	return strings.Join(names, ", ")
}

// HasExtension reports whether the file name has one of l's extensions.
func (l *Language) HasExtension(name string) bool {
	return slices.Contains(l.Extensions, path.Ext(name))
}

// RunBy reports whether a file whose "#!" line names interpreter is one
// of l's files.
func (l *Language) RunBy(interpreter string) bool {
	return interpreter != "" && slices.Contains(l.Interpreters, interpreter)
}

// IsTest reports whether the file rel (a slash path relative to the
// repository's top, or a base name) is a test file of its language:
// _test.go; test_*.py, *_test.py and .py files under a tests directory;
// *.bats.
func IsTest(rel string) bool {
	return slices.ContainsFunc(Languages, func(l *Language) bool { return l.test(rel) })
}

// Interpreter returns the program a file's "#!" line names, as a base
// name: the program itself, or the one env runs ("#!/usr/bin/env bash",
// "#!/usr/bin/env -S bash -e"). It returns "" when head, the file's first
// bytes, does not start with "#!".
func Interpreter(head []byte) string {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	rest, ok := bytes.CutPrefix(line, []byte("#!"))
	if !ok {
		return ""
	}
	fields := strings.Fields(string(rest))
	if len(fields) == 0 {
		return ""
	}
	prog := path.Base(fields[0])
	if prog != "env" {
		return prog
	}
	for i := 1; i < len(fields); i++ {
		switch f := fields[i]; {
		case f == "-u" || f == "--unset" || f == "-C" || f == "--chdir":
			i++ // the option's argument
		case strings.HasPrefix(f, "-") || strings.Contains(f, "="):
			// -S, -i; NAME=value
		default:
			return path.Base(f)
		}
	}
	return ""
}
