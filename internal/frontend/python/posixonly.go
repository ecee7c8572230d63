package python

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// posixModules are modules that Windows' Python lacks: a file that
// imports one at its top cannot be imported there, so nothing in it runs
// on Windows. daemon is python-daemon, built on them.
var posixModules = map[string]bool{
	"fcntl": true, "pwd": true, "grp": true, "termios": true, "resource": true, "pty": true, "tty": true,
	"posix": true, "syslog": true, "crypt": true, "spwd": true, "nis": true, "daemon": true,
}

// posixModule reports whether the dotted module name is one of
// posixModules or inside one.
func posixModule(name string) bool {
	root, _, _ := strings.Cut(name, ".")
	return posixModules[root]
}

// importedModule is the module an import statement imports from, or for
// import a, b the first of them.
func (f platforms) importedModule(stmt int32) string {
	if f.kind(stmt) == "import_from_statement" {
		return f.text(f.field(stmt, "module_name"))
	}
	c := f.field(stmt, "name")
	if f.kind(c) == "aliased_import" {
		c = f.field(c, "name")
	}
	return f.text(c)
}

// topImports are the import statements at the top level of the module,
// outside any if or try: those that run whenever the file is imported.
func (f platforms) topImports() []int32 {
	var out []int32
	for s := range f.t.NamedChildren(0) {
		if k := f.kind(s); k == "import_statement" || k == "import_from_statement" {
			out = append(out, s)
		}
	}
	return out
}

// importsPosixModule reports whether the file imports a POSIX-only module
// at its top.
func (f platforms) importsPosixModule() bool {
	for _, s := range f.topImports() {
		if posixModule(f.importedModule(s)) {
			return true
		}
	}
	return false
}

// posixOnly reports whether the file cannot be imported on Windows: it
// imports a POSIX-only module at its top, or a module of its own package
// that does, or the modules of its directory that import it do so only
// off Windows. It is computed once per file.
func (f platforms) posixOnly() bool {
	f.posixOnce.Do(func() {
		f.posix = f.importsPosixModule() || f.packageImportsPosix() || f.importersGuarded()
	})
	return f.posix
}

// packageImportsPosix reports whether a module of the file's package that
// the file imports at its top imports a POSIX-only module at its top.
func (f platforms) packageImportsPosix() bool {
	if f.loader == nil {
		return false
	}
	for _, s := range f.topImports() {
		for _, path := range f.packageModules(s) {
			if g := f.loader.load(path); g != nil && (platforms{g}).importsPosixModule() {
				return true
			}
		}
	}
	return false
}

// packageModules are the files of the file's own package that an import
// statement may name: from . import util, from .util import x, from
// pkg.util import x and import pkg.util, where pkg is the file's top
// package.
func (f platforms) packageModules(stmt int32) []string {
	dir := filepath.Dir(f.name)
	var bases []string // module paths relative to a directory, as a/b
	var from string
	if f.kind(stmt) == "import_from_statement" {
		from = f.text(f.field(stmt, "module_name"))
	}
	switch {
	case strings.HasPrefix(from, "."):
		rest := strings.TrimLeft(from, ".")
		for range len(from) - len(rest) - 1 {
			dir = filepath.Dir(dir)
		}
		if rest != "" {
			bases = append(bases, strings.ReplaceAll(rest, ".", "/"))
		} else {
			for c := range f.t.NamedChildren(stmt) {
				if f.t.Field(c) == "name" {
					name := c
					if f.kind(c) == "aliased_import" {
						name = f.field(c, "name")
					}
					bases = append(bases, f.text(name))
				}
			}
		}
	default:
		top := packageTop(dir)
		if top == "" {
			return nil
		}
		mod := from
		if mod == "" {
			mod = f.importedModule(stmt)
		}
		first, rest, ok := strings.Cut(mod, ".")
		if first != filepath.Base(top) {
			return nil
		}
		dir = top
		if ok {
			bases = append(bases, strings.ReplaceAll(rest, ".", "/"))
		}
		if from != "" {
			for c := range f.t.NamedChildren(stmt) {
				if f.t.Field(c) == "name" && f.kind(c) == "dotted_name" {
					bases = append(bases, strings.ReplaceAll(strings.TrimPrefix(from+"."+f.text(c), first+"."), ".", "/"))
				}
			}
		}
	}
	var out []string
	for _, b := range bases {
		for _, p := range []string{filepath.Join(dir, filepath.FromSlash(b)+".py"), filepath.Join(dir, filepath.FromSlash(b), "__init__.py")} {
			if p != f.name {
				out = append(out, p)
			}
		}
	}
	return out
}

// packageTop is the outermost directory of the package dir is in (each
// directory up to it holds an __init__.py), or "" when dir is no package.
func packageTop(dir string) string {
	top := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "__init__.py")); err != nil {
			return top
		}
		top = d
		if filepath.Dir(d) == d {
			return top
		}
	}
}

// importersGuarded reports whether the file, a module m, is imported by
// the modules of its directory and its parent's (those whose text names
// m) only where Windows cannot get: the package picks it by platform, or
// every importer is itself POSIX-only.
func (f platforms) importersGuarded() bool {
	if f.loader == nil {
		return false
	}
	m := strings.TrimSuffix(filepath.Base(f.name), ".py")
	if m == "__init__" {
		return false
	}
	dir := filepath.Dir(f.name)
	var candidates []string
	for _, d := range []string{dir, filepath.Dir(dir)} {
		names, _ := filepath.Glob(filepath.Join(d, "*.py"))
		candidates = append(candidates, names...)
	}
	found := false
	for _, path := range candidates {
		if path == f.name || !f.loader.mentions(path, m) {
			continue
		}
		loaded := f.loader.load(path)
		if loaded == nil {
			continue
		}
		g := platforms{loaded}
		for _, stmt := range g.importsOf(m) {
			found = true
			if !g.guarded(stmt, 0, map[int32]bool{}) && !g.importsPosixModule() && !g.packageImportsPosix() {
				return false
			}
		}
	}
	return found
}

// importsOf are the import statements of the file that import a module
// named m: import a.m, from a.m import x, from a import m, from . import m,
// from .m import x.
func (g platforms) importsOf(m string) []int32 {
	var out []int32
	for i := range g.t.Nodes {
		s := int32(i)
		k := g.kind(s)
		if k != "import_statement" && k != "import_from_statement" {
			continue
		}
		mod := g.importedModule(s)
		if mod == m || strings.HasSuffix(mod, "."+m) {
			out = append(out, s)
			continue
		}
		if k == "import_from_statement" {
			for c := range g.t.NamedChildren(s) {
				if g.t.Field(c) != "name" {
					continue
				}
				if g.kind(c) == "aliased_import" {
					c = g.field(c, "name")
				}
				if g.text(c) == m {
					out = append(out, s)
					break
				}
			}
		}
	}
	return out
}

// mentionsBytes reports whether data holds word as a whole word.
func mentionsBytes(data []byte, word string) bool {
	w := []byte(word)
	for i := 0; ; {
		j := bytes.Index(data[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordByte(data[j-1])
		after := j+len(w) == len(data) || !isWordByte(data[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
