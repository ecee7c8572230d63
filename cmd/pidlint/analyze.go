package main

// This file is the run over every GOOS: the first (host) build over all
// packages, the other builds over the packages that differ for them, at
// the same time; then one merged list of findings.

import (
	"fmt"
	"os"
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
	wg.Go(func() { record(d.vet(primary, opts, opts.patterns, files)) })
	// Each other build lists the packages for its GOOS (quick: no
	// dependencies) while the first build runs, and analyzes the few that
	// differ, if any.
	for _, goos := range others {
		wg.Go(func() {
			pkgs, err := d.listPackages(opts, goos, opts.patterns)
			if err != nil {
				record(nil, err)
				return
			}
			if paths := packagesFor(pkgs, goos, primary); len(paths) > 0 {
				record(d.vet(goos, opts, paths, files))
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return nil, errs[0]
	}

	dir := d.dir
	if dir == "" {
		dir = "."
	}
	rep := &report{root: d.root(moduleRoot(dir))}
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
