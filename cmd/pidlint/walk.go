package main

// This file finds, without the go command, the packages that directory
// patterns (./..., ./cmd/x) name, so that planning the other GOOS builds
// costs a walk of the tree instead of one go list per GOOS.

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// patternDirs returns the directories the patterns name, relative to base:
// "./x/..." is x and every directory below it, but those go's wildcards
// skip (names starting with . or _, testdata, vendor, other modules). It
// reports false when a pattern is not a directory (an import path, std):
// then go list resolves them.
func patternDirs(base string, patterns []string) ([]string, bool) {
	var dirs []string
	for _, pat := range patterns {
		if !isDirPattern(pat) {
			return nil, false
		}
		root, wild := strings.CutSuffix(filepath.ToSlash(pat), "/...")
		if pat == "..." {
			return nil, false
		}
		root = filepath.Join(base, filepath.FromSlash(root))
		if !wild {
			dirs = append(dirs, root)
			continue
		}
		err := filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			if name != root {
				base := d.Name()
				if strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "vendor" {
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
			return nil, false
		}
	}
	return dirs, true
}

// isDirPattern reports whether pat names directories, as the go command
// reads it: ".", "..", or a path starting with ./, ../ or /.
func isDirPattern(pat string) bool {
	pat = filepath.ToSlash(pat)
	return pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat)
}

// dirPackages lists the Go files of each directory as a listedPackage
// (all of them as GoFiles: packagesFor only asks which build where), the
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
