// Command recall scores pidlint's PL007 and PL008 on labelled sites in
// public Go modules (sites.tsv): it downloads each module through the Go
// module proxy, runs a pidlint binary over the packages that hold its
// sites, matches the findings to the sites and prints, per rule, true and
// false positives and negatives, precision and recall, how many reports
// stand on the line where the fix goes, and every PL007/PL008 finding that
// matches no labelled site. docs/recall.md explains the matching.
//
// Usage (tools/recall/recall.sh builds pidlint from the checkout and runs
// this; make recall runs that):
//
//	go run . -pidlint /path/to/pidlint [-strict] [-module substr] [-markdown out.md] [sites.tsv]
//
// A module that cannot be downloaded, copied or linted is reported with
// its name and the error, its sites are left out of the counts, the other
// modules go on, and the command exits 1 at the end.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	pidlint := flag.String("pidlint", "", "the pidlint binary to score (required)")
	strict := flag.Bool("strict", false, "also run pidlint -strict and score name-check sites as positives")
	only := flag.String("module", "", "score only modules whose path@version contains this")
	markdown := flag.String("markdown", "", "also write the report as markdown to this file")
	work := flag.String("work", "", "directory for the module copies (default: a temporary one, removed at the end)")
	verbose := flag.Bool("v", false, "print what pidlint says on standard error for each module")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: recall -pidlint BINARY [-strict] [-module SUBSTR] [-markdown FILE] [-work DIR] [-v] [sites.tsv]")
		flag.PrintDefaults()
	}
	flag.Parse()
	sitesFile := "sites.tsv"
	if flag.NArg() == 1 {
		sitesFile = flag.Arg(0)
	} else if flag.NArg() > 1 || *pidlint == "" {
		flag.Usage()
		os.Exit(2)
	}
	bin, err := filepath.Abs(*pidlint)
	if err == nil {
		_, err = os.Stat(bin)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "recall: pidlint binary: %v\n", err)
		os.Exit(2)
	}
	sites, err := ReadSites(sitesFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "recall: %v\n", err)
		os.Exit(2)
	}
	dir := *work
	if dir == "" {
		if dir, err = os.MkdirTemp("", "recall"); err != nil {
			fmt.Fprintf(os.Stderr, "recall: %v\n", err)
			os.Exit(1)
		}
		defer os.RemoveAll(dir)
	}
	rep := &Report{Strict: *strict}
	for _, mod := range modules(sites) {
		if *only != "" && !strings.Contains(mod.name, *only) {
			continue
		}
		rep.Add(scoreModule(bin, dir, mod, *strict, *verbose))
	}
	rep.Text(os.Stdout)
	if *markdown != "" {
		if err := os.WriteFile(*markdown, []byte(rep.Markdown()), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "recall: %v\n", err)
			os.Exit(1)
		}
	}
	if len(rep.Failures) > 0 {
		os.Exit(1)
	}
}

type module struct {
	name  string
	sites []*Site
}

// modules groups the sites by module, in the order of the sites file.
func modules(sites []*Site) []module {
	var mods []module
	index := make(map[string]int)
	for _, s := range sites {
		i, ok := index[s.Module]
		if !ok {
			i = len(mods)
			index[s.Module] = i
			mods = append(mods, module{name: s.Module})
		}
		mods[i].sites = append(mods[i].sites, s)
	}
	return mods
}

// A ModuleResult is one module's scored runs, or why it could not be
// scored.
type ModuleResult struct {
	Module          string
	Sites           []*Site
	Default, Strict []Result
	Unmatched       []Finding // default run
	UnmatchedStrict []Finding
	Err             error
	Elapsed         time.Duration
}

func scoreModule(pidlint, work string, mod module, strict, verbose bool) ModuleResult {
	start := time.Now()
	res := ModuleResult{Module: mod.name, Sites: mod.sites}
	fail := func(err error) ModuleResult {
		res.Err = err
		res.Elapsed = time.Since(start)
		fmt.Fprintf(os.Stderr, "recall: FAIL %s: %v\n", mod.name, err)
		return res
	}
	fmt.Fprintf(os.Stderr, "recall: %s: %d sites\n", mod.name, len(mod.sites))
	src, err := fetch(mod.name)
	if err != nil {
		return fail(err)
	}
	copyDir := filepath.Join(work, strings.NewReplacer("/", "_", "@", "_", "+", "_").Replace(mod.name))
	if err := os.RemoveAll(copyDir); err != nil {
		return fail(err)
	}
	if err := prepare(src, copyDir); err != nil {
		return fail(err)
	}
	decls := NewDecls(copyDir)
	spans, err := scopes(mod.sites, decls)
	if err != nil {
		return fail(err)
	}
	var files []string
	for _, ss := range spans {
		for _, sp := range ss {
			files = append(files, sp.File)
		}
	}
	for _, s := range mod.sites {
		files = append(files, s.File)
	}
	pkgs := packages(files)
	if err := fetchDeps(copyDir, pkgs); err != nil {
		return fail(err)
	}
	run := func(strictRun bool) ([]Result, []Finding, error) {
		findings, stderr, err := lint(pidlint, copyDir, pkgs, strictRun)
		if verbose || err != nil {
			for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if line != "" {
					fmt.Fprintf(os.Stderr, "  %s: %s\n", mod.name, line)
				}
			}
		}
		if err != nil {
			return nil, nil, err
		}
		results, unmatched := match(mod.sites, spans, findings)
		return results, unmatched, nil
	}
	if res.Default, res.Unmatched, err = run(false); err != nil {
		return fail(err)
	}
	if strict {
		if res.Strict, res.UnmatchedStrict, err = run(true); err != nil {
			return fail(err)
		}
	}
	res.Elapsed = time.Since(start)
	fmt.Fprintf(os.Stderr, "recall: %s: done in %s\n", mod.name, res.Elapsed.Round(time.Second))
	return res
}
