package plan

// Directory patterns (./..., ./cmd/x) are resolved here without the go
// command, so that planning the other GOOS builds costs a walk of the
// tree instead of one go list per GOOS.

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pidlint/pidlint/internal/frontend"
)

// patternDirs returns the directories the patterns name, relative to base:
// "./x/..." is x and every directory below it, but those go's wildcards
// skip (names starting with . or _, testdata, vendor, other modules);
// hasGo reports whether one of them (or a file pattern) holds a Go file
// the go command would read. It reports false when a pattern is not a
// directory (an import path, std): then go list resolves them.
func patternDirs(base string, patterns []string) (dirs []string, hasGo, ok bool) {
	for _, pat := range patterns {
		if !frontend.IsDirPattern(pat) {
			return nil, false, false
		}
		root, wild := strings.CutSuffix(filepath.ToSlash(pat), "/...")
		root = filepath.Join(base, filepath.FromSlash(root))
		if !wild {
			dirs = append(dirs, root)
			hasGo = hasGo || holdsGo(root)
			continue
		}
		err := filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				hasGo = hasGo || goFile(d.Name())
				return nil
			}
			if name != root {
				if SkippedDir(d.Name()) {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(name, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			dirs = append(dirs, name)
			return nil
		})
		if err != nil {
			return nil, false, false
		}
	}
	return dirs, hasGo, true
}

// holdsGo reports whether the pattern's root, a directory or a file, is
// or holds a Go file.
func holdsGo(root string) bool {
	entries, err := os.ReadDir(root)
	if err != nil {
		return goFile(filepath.Base(root)) // a file pattern
	}
	return slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return !e.IsDir() && goFile(e.Name()) })
}

// goFile reports whether the go command reads a file of this name (as
// far as its name says).
func goFile(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// SkippedDir reports whether the go command's ./... skips a directory of
// this name.
func SkippedDir(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor"
}

// dirPackages lists the Go files of each directory as a listedPackage
// (all of them as GoFiles: Build only asks which build where), the
// package named by its directory.
func dirPackages(base string, dirs []string) []listedPackage {
	var pkgs []listedPackage
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		p := listedPackage{Dir: dir}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
				p.GoFiles = append(p.GoFiles, e.Name())
			}
		}
		if len(p.GoFiles) == 0 {
			continue
		}
		rel, err := filepath.Rel(base, dir)
		if err != nil {
			continue
		}
		p.ImportPath = "./" + filepath.ToSlash(rel)
		pkgs = append(pkgs, p)
	}
	return pkgs
}
