// Package plan decides what a pidlint run analyzes: which packages for
// which GOOS. The first GOOS (the host's, when listed) covers every
// package the patterns name. The builds of a package differ only in its
// GOOS-constrained files, so another GOOS covers only the packages with a
// file that builds for it, not for the first, and may hold something a
// rule reports; most runs need no other build.
package plan

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/pidlint/pidlint/analyzer"
	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/gocmd"
)

// A Plan is the builds of one run.
type Plan struct {
	Dir      string   // the directory the run works in, absolute
	GOOS     []string // the builds, the first covering every package
	Patterns []string // the package patterns as given
	Host     string   // the GOOS the go command builds for unasked
	// Cold: the build cache is empty, so the packages are loaded in this
	// process instead of by go vet (which would first compile every
	// dependency).
	Cold bool

	goCmd  *gocmd.Runner
	walked []string // the directories the patterns name, when they are all directory patterns
	byWalk bool
	hasGo  bool // a Go file is in walked

	analyzedOnce sync.Once
	analyzed     map[string]bool // canonical directories of the first build's packages
}

// A Build is what one GOOS analyzes.
type Build struct {
	GOOS     string
	Patterns []string        // for go vet or the loader: patterns, import paths or ./dir paths
	Dirs     map[string]bool // the directories of those packages (to keep their function bodies in process)
}

// New plans a run over patterns for the GOOS builds goos (the first
// covering every package) with the go command r, on a host whose GOOS is
// host. It runs no go command: Cold is for the caller to set, once it
// knows there is something to analyze (NoGoFiles).
func New(r *gocmd.Runner, host string, goos, patterns []string) (*Plan, error) {
	dir, err := filepath.Abs(cmp.Or(r.Dir, "."))
	if err != nil {
		return nil, err
	}
	p := &Plan{Dir: dir, GOOS: goos, Patterns: patterns, Host: host, goCmd: r}
	p.walked, p.hasGo, p.byWalk = patternDirs(dir, patterns)
	return p, nil
}

// NoGoFiles reports whether the patterns are all directories, and none
// holds a Go file: there is nothing for the go command to do.
func (p *Plan) NoGoFiles() bool { return p.byWalk && !p.hasGo }

// Build returns what the build for goos analyzes; Patterns is empty when
// it has nothing to do. For another GOOS than the first it lists the
// packages (by a walk of the tree for directory patterns, else go list),
// so callers call it for every GOOS at once.
func (p *Plan) Build(goos string) (Build, error) {
	b := Build{GOOS: goos, Dirs: make(map[string]bool)}
	primary := goos == p.GOOS[0]
	if primary && !p.Cold {
		b.Patterns = p.Patterns // go vet lists them itself
		return b, nil
	}
	pkgs, err := p.packages(goos)
	if err != nil {
		return b, err
	}
	if primary {
		b.Patterns = p.Patterns
		for _, pkg := range pkgs {
			b.Dirs[filepath.Clean(pkg.Dir)] = true
		}
		return b, nil
	}
	for _, pkg := range pkgs {
		files := slices.Concat(pkg.GoFiles, pkg.CgoFiles, pkg.TestGoFiles, pkg.XTestGoFiles)
		if slices.ContainsFunc(files, func(name string) bool { return differs(pkg.Dir, name, goos, p.GOOS[0]) }) {
			b.Patterns = append(b.Patterns, pkg.ImportPath)
			b.Dirs[filepath.Clean(pkg.Dir)] = true
		}
	}
	return b, nil
}

// differs reports whether the file name in dir builds for goos but not
// for first, and may hold something a rule reports. A call in such a file
// of a wrapper declared in another file or package, with nothing else a
// rule looks at, is not seen.
func differs(dir, name, goos, first string) bool {
	if BuildsFor(first, dir, name) || !BuildsFor(goos, dir, name) {
		return false
	}
	src, err := os.ReadFile(filepath.Join(dir, name))
	return err != nil || analyzer.MayReport(src) // unreadable: let the build say why
}

// Analyzed reports whether dir holds a package the first build analyzes.
// It lists the packages the first time it is asked.
func (p *Plan) Analyzed(dir string) bool {
	p.analyzedOnce.Do(func() {
		p.analyzed = make(map[string]bool)
		pkgs, _ := p.packages(p.GOOS[0])
		for _, pkg := range pkgs {
			p.analyzed[finding.Canonical(pkg.Dir)] = true
		}
	})
	return p.analyzed[finding.Canonical(dir)]
}

// packages lists the packages the patterns name, as they build for goos:
// by a walk of the tree for directory patterns, else by go list.
func (p *Plan) packages(goos string) ([]listedPackage, error) {
	if p.byWalk {
		return dirPackages(p.Dir, p.walked), nil
	}
	return p.list(goos)
}
