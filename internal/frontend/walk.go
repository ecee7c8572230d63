package frontend

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/pidlint/pidlint/internal/rules"
)

// The walk finds the files of the languages whose front ends do not
// resolve the patterns themselves: under each directory pattern's
// directory (and, for "dir/...", every directory below it), the files
// with one of a language's extensions, and the files without an
// extension whose "#!" line names one of its interpreters. It leaves out
// what is not the project's own code: version control (.git, .hg, .svn),
// vendor, node_modules, testdata (fixtures, as the go command leaves them
// out), __pycache__, and virtual environments (a directory holding
// pyvenv.cfg, or conda-meta). Symbolic links are not followed: a linked
// file is checked where it lives, if a pattern reaches it there.

// skippedDirs are the directory names the walk does not enter.
var skippedDirs = []string{".git", ".hg", ".svn", "vendor", "node_modules", "testdata", "__pycache__"}

// environmentMarkers mark a directory as a Python environment: a venv
// (pyvenv.cfg) or a conda environment (conda-meta).
var environmentMarkers = []string{"pyvenv.cfg", "conda-meta"}

// shebangBytes is how much of a file without an extension the walk reads
// for its "#!" line.
const shebangBytes = 256

// A walk collects the files of langs.
type walk struct {
	langs  []*rules.Language
	files  map[*rules.Language]map[string]bool
	errs   []string
	sniffs bool // a language is known by its "#!" line: files without an extension are read
}

// find returns, per language of langs, the files the directory targets
// hold and the file targets of that language, each absolute, sorted and
// once; errs name the directories it could not read.
func find(targets []target, langs []*rules.Language) (map[*rules.Language][]string, []string) {
	w := &walk{langs: langs, files: make(map[*rules.Language]map[string]bool)}
	w.sniffs = slices.ContainsFunc(langs, func(l *rules.Language) bool { return len(l.Interpreters) > 0 })
	for _, t := range targets {
		switch {
		case t.packagesOnly():
		case !t.dir:
			if l := w.language(t.path); l != nil {
				w.add(l, t.path)
			}
		case t.wild:
			w.tree(t.path)
		default:
			entries, err := os.ReadDir(t.path)
			if err != nil {
				w.errs = append(w.errs, err.Error())
			}
			for _, e := range entries {
				w.entry(t.path, e)
			}
		}
	}
	out := make(map[*rules.Language][]string)
	for l, set := range w.files {
		for name := range set {
			out[l] = append(out[l], name)
		}
		slices.Sort(out[l])
	}
	return out, w.errs
}

// tree walks root and the directories below it.
func (w *walk) tree(root string) {
	filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			w.errs = append(w.errs, fmt.Sprintf("reading %s: %v", name, unwrap(err)))
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			if name != root && (slices.Contains(skippedDirs, d.Name()) || environment(name)) {
				return filepath.SkipDir
			}
			return nil
		}
		w.entry(filepath.Dir(name), d)
		return nil
	})
}

// environment reports whether dir is a Python environment.
func environment(dir string) bool {
	return slices.ContainsFunc(environmentMarkers, func(m string) bool {
		_, err := os.Lstat(filepath.Join(dir, m))
		return err == nil
	})
}

// entry takes the directory entry e of dir if it is a file of a language.
func (w *walk) entry(dir string, e fs.DirEntry) {
	if !e.Type().IsRegular() {
		return // a directory, a symbolic link, a device
	}
	name := filepath.Join(dir, e.Name())
	if l := w.language(name); l != nil {
		w.add(l, name)
	}
}

// language returns the language of the file name among w's, or nil. Only
// a file without an extension is read, for its "#!" line.
func (w *walk) language(name string) *rules.Language {
	if filepath.Ext(name) != "" {
		for _, l := range w.langs {
			if l.HasExtension(name) {
				return l
			}
		}
		return nil
	}
	if !w.sniffs {
		return nil
	}
	interp := rules.Interpreter(head(name))
	for _, l := range w.langs {
		if l.RunBy(interp) {
			return l
		}
	}
	return nil
}

// head returns the first bytes of the file name; none if it cannot be
// read (the front end that would check it says why, had it been taken).
func head(name string) []byte {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, shebangBytes)
	n, _ := io.ReadFull(f, buf)
	return buf[:n]
}

func (w *walk) add(l *rules.Language, name string) {
	if w.files[l] == nil {
		w.files[l] = make(map[string]bool)
	}
	w.files[l][name] = true
}

// unwrap drops the operation and path an *fs.PathError repeats.
func unwrap(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
