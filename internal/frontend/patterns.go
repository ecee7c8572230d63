package frontend

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A target is what one command-line pattern names on disk.
type target struct {
	pattern string
	path    string // absolute; "" for a pattern of the Go front end alone
	dir     bool   // a directory; else a file
	wild    bool   // "dir/...": the directory and every one below it
}

// packagesOnly reports whether the pattern is for the Go front end alone.
func (t target) packagesOnly() bool { return t.path == "" }

// resolve reads the patterns as the go command does, against dir, in
// their order: a directory pattern (".", "./x", "../x", "/x", each perhaps
// ending in "/...") names a directory, and a pattern naming an existing
// file names that file. The others (import paths, patterns with "..."
// inside) are the Go front end's alone. A directory pattern naming no
// directory is an error.
func resolve(dir string, patterns []string) (targets []target, errs []string) {
	for _, pat := range patterns {
		name := filepath.FromSlash(pat)
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() {
			targets = append(targets, target{pattern: pat, path: name})
			continue
		}
		root, wild := strings.CutSuffix(filepath.ToSlash(pat), "/...")
		if !IsDirPattern(pat) || strings.Contains(root, "...") {
			targets = append(targets, target{pattern: pat}) // an import path, or a wildcard the go command matches
			continue
		}
		root = filepath.FromSlash(root)
		if !filepath.IsAbs(root) {
			root = filepath.Join(dir, root)
		}
		fi, err := os.Stat(root)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			errs = append(errs, fmt.Sprintf("pattern %s: no such directory", pat))
		case err != nil:
			errs = append(errs, fmt.Sprintf("pattern %s: %v", pat, err))
		case !fi.IsDir():
			errs = append(errs, fmt.Sprintf("pattern %s: %s is not a directory", pat, root))
		default:
			targets = append(targets, target{pattern: pat, path: root, dir: true, wild: wild})
		}
	}
	return targets, errs
}

// IsDirPattern reports whether a package pattern names directories, as the
// go command reads it: ".", "..", or a path starting with ./, ../ or /.
func IsDirPattern(pat string) bool {
	pat = filepath.ToSlash(pat)
	return pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat)
}
