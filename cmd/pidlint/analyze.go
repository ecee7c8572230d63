package main

// This file is the run over every GOOS: the first (host) build over all
// packages, the other builds over the packages that differ for them, at
// the same time; then one merged list of findings.

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/pidlint/pidlint/analyzer"
)

// analyze runs the GOOS builds opts asks for and returns the merged report.
func (d *driver) analyze(opts *options) (*report, error) {
	if d.tool == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("cannot find pidlint's own executable for go vet -vettool: %v", err)
		}
		d.tool = exe
	}
	files := newFileIndex()
	primary, others := opts.goos[0], opts.goos[1:]
	dir, err := filepath.Abs(cmp.Or(d.dir, "."))
	if err != nil {
		return nil, err
	}
	moduleDir := moduleRoot(dir)
	// With an empty build cache, go vet would first compile every
	// dependency: load in this process instead.
	cold := d.buildCacheEmpty()

	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		builds []*goosBuild
		errs   []error
	)
	record := func(b *goosBuild, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, err)
		} else if b != nil {
			builds = append(builds, b)
		}
	}
	// The directories the patterns name: a walk of the tree for directory
	// patterns, else go list without dependencies (per GOOS, below).
	walked, byWalk := patternDirs(dir, opts.patterns)
	wg.Go(func() {
		if !cold {
			record(d.vet(primary, opts, opts.patterns, files))
			return
		}
		// Function bodies are kept in the packages the patterns name.
		roots := make(map[string]bool)
		pkgs := dirPackages(dir, walked)
		if !byWalk {
			var err error
			if pkgs, err = d.listPackages(opts, primary, opts.patterns); err != nil {
				record(nil, err)
				return
			}
		}
		for _, p := range pkgs {
			roots[filepath.Clean(p.Dir)] = true
		}
		record(d.load(primary, opts, opts.patterns, func(name string) bool { return inDirs(roots, name) }))
	})
	// Each other build finds the packages that differ for its GOOS while
	// the first build runs, and analyzes them, if any.
	for _, goos := range others {
		wg.Go(func() {
			pkgs := dirPackages(dir, walked)
			if !byWalk {
				var err error
				if pkgs, err = d.listPackages(opts, goos, opts.patterns); err != nil {
					record(nil, err)
					return
				}
			}
			paths, dirs := packagesFor(pkgs, goos, primary)
			switch {
			case len(paths) == 0:
			case cold:
				record(d.load(goos, opts, paths, func(name string) bool { return inDirs(dirs, name) }))
			default:
				record(d.vet(goos, opts, paths, files))
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return nil, errs[0]
	}

	rep := &report{root: d.root(moduleDir)}
	slices.SortFunc(builds, func(x, y *goosBuild) int { return slices.Index(opts.goos, x.goos) - slices.Index(opts.goos, y.goos) })
	var all []finding
	for _, b := range builds {
		if b.goos == primary {
			rep.errors = append(rep.errors, b.general...)
			for pkg, msg := range b.failed {
				rep.errors = append(rep.errors, fmt.Sprintf("%s: %s", pkg, msg))
			}
		} else {
			for _, msg := range b.general {
				rep.skipped = append(rep.skipped, fmt.Sprintf("GOOS=%s: %s", b.goos, msg))
			}
			for pkg, msg := range b.failed {
				first, _, _ := strings.Cut(msg, "\n")
				rep.skipped = append(rep.skipped, fmt.Sprintf("skipped %s for GOOS=%s: it does not type-check there: %s", pkg, b.goos, first))
			}
		}
		for _, f := range b.findings {
			if opts.tests || !strings.HasSuffix(f.pos.Filename, "_test.go") {
				if !fallbackCovered(f, b.goos, opts.goos) {
					all = append(all, f)
				}
			}
		}
	}
	rep.findings = mergeFindings(all)
	slices.Sort(rep.errors)
	rep.errors = slices.Compact(rep.errors)
	slices.Sort(rep.skipped)
	return rep, nil
}

// warmCacheEntries is how many files a build cache holds once anything
// was built with it; fewer, and it is taken for empty (a fresh CI runner).
const warmCacheEntries = 1000

// buildCacheEmpty reports whether the go command's build cache holds
// (next to) nothing, or is off.
func (d *driver) buildCacheEmpty() bool {
	cmd := exec.Command("go", "env", "GOCACHE")
	cmd.Dir = d.dir
	out, err := cmd.Output()
	cache := strings.TrimSpace(string(out))
	if err != nil || cache == "" || cache == "off" {
		return err == nil
	}
	n := 0
	for i := range 256 {
		entries, _ := os.ReadDir(filepath.Join(cache, fmt.Sprintf("%02x", i)))
		if n += len(entries); n >= warmCacheEntries {
			return false
		}
	}
	return true
}

// fallbackCovered reports whether f comes from the analyzer's syntax-only
// look at a file its build ignores (the file does not build for goos)
// while another of the builds analyzes that file with full types.
func fallbackCovered(f finding, goos string, builds []string) bool {
	dir, name := filepath.Dir(f.pos.Filename), filepath.Base(f.pos.Filename)
	if buildsFor(goos, dir, name) {
		return false
	}
	return slices.ContainsFunc(builds, func(g string) bool { return g != goos && buildsFor(g, dir, name) })
}

// ruleID reports whether id names one of the analyzer's rules.
func ruleID(id string) bool {
	r, ok := analyzer.LookupRule(id)
	return ok && r.ID == id
}
