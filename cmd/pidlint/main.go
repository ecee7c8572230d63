// Command pidlint reports unsafe process-liveness checks in Go code, and
// in the files of every other language it has a front end for.
//
// Usage:
//
//	pidlint [-goos=linux,darwin,windows,freebsd|host] [-languages=go,…] [-strict] [-safeprobe=path] [-disable=PL00N,…] [-test=false] packages
//	pidlint [-json | -fix | -diff | -format=sarif|github|text] [-new-from-rev=REV] … packages
//	pidlint [-baseline=FILE | -write-baseline=FILE] [-vendor-safeprobe=DIR] [-vendor-python-helper=DIR] … packages
//	pidlint -help | -version
//	pidlint -explain [-markdown] [PL00N…]
//	go vet -vettool=$(command -v pidlint) ./...
//	go fix -fixtool=$(command -v pidlint) ./...
//
// pidlint analyzes the packages as they build for each GOOS that -goos
// names (linux, darwin, windows and freebsd by default; -goos=host for
// this machine's only), each with full type information, so that a probe
// in a _darwin.go file or under //go:build windows is seen on a Linux
// machine. The go command does the work (go vet -vettool=pidlint, once per
// GOOS): it loads and caches each package's result, so a second run on an
// unchanged tree costs what go vet's does. The build for the host covers
// every package; the other GOOS builds cover only the packages whose files
// for that GOOS hold something a rule looks at. A finding that several
// builds report is reported once; their suggested fixes are kept when they
// agree. A package that does not type-check for one GOOS (cgo-only code)
// is skipped for that GOOS with a line saying so. With an empty build
// cache (a fresh CI runner), where go vet would first compile every
// dependency, pidlint loads the packages in its own process instead,
// checking the dependencies it does not report on from their declarations
// only.
//
// Each language has a front end (package frontend): Go's is the above;
// the others check the files of their language found under the
// directories the patterns name. -languages selects them (default: every
// one with files to check), and a directory without a go.mod is checked
// for the other languages alone.
//
// Output: text on standard error; -json go vet's JSON on standard output;
// -format=sarif a SARIF 2.1.0 log for code scanning dashboards;
// -format=github GitHub Actions annotations. -fix applies the suggested
// fixes and -diff prints them as a unified diff. -new-from-rev=REV
// reports only findings on lines added or changed since the git revision
// REV. -explain prints the rules' documentation; -explain -markdown
// prints docs/rules.md.
//
// Run by go vet or go fix (its only argument a vet.cfg file, or -flags,
// or -V=full), pidlint is a vet tool (unitchecker).
//
// Exit status, the same in every mode: 0 when clean (with -fix: nothing
// left unfixed), 3 when findings remain, 1 on errors, 2 for a command line
// pidlint cannot run.
package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/pidlint/pidlint/analyzer"
	"github.com/pidlint/pidlint/internal/config"
	"github.com/pidlint/pidlint/internal/explain"
	"github.com/pidlint/pidlint/internal/filter"
	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/fix"
	"github.com/pidlint/pidlint/internal/fix/pyhelper"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/git"
	"github.com/pidlint/pidlint/internal/gocmd"
	"github.com/pidlint/pidlint/internal/print"
	"github.com/pidlint/pidlint/internal/source"
	"github.com/pidlint/pidlint/internal/version"
	"github.com/pidlint/pidlint/internal/vettool"
)

// Exit codes, as singlechecker's and go vet's, and 2 for a command line
// pidlint cannot run.
const (
	exitClean    = 0
	exitError    = 1
	exitUsage    = 2
	exitFindings = 3
)

func main() {
	args := os.Args[1:]
	if vettool.IsCall(args) {
		vettool.Main(analyzer.Analyzer) // exits
	}
	os.Exit(command{stdout: os.Stdout, stderr: os.Stderr}.run(args))
}

// A command is one run of pidlint from its command line.
type command struct {
	dir            string // where the go command and git run; "" is the current directory
	stdout, stderr io.Writer
	tool           string // the vet tool go vet runs: this executable unless set
}

// run runs pidlint with args (without the program name) and returns the
// exit code: the stages in order, front ends → filter → fix or print.
func (c command) run(args []string) int {
	if len(args) >= 1 && (args[0] == "-explain" || args[0] == "--explain") {
		return c.explain(args[1:])
	}
	host := hostGOOS()
	opts, err := config.Parse(args, host, cmp.Or(c.dir, "."))
	switch {
	case err != nil:
		return c.usageError(err)
	case opts.Help:
		config.WriteHelp(c.stdout)
		return exitClean
	case opts.Version:
		fmt.Fprintln(c.stdout, version.String())
		return exitClean
	}
	registered, err := selectFrontEnds(opts.Languages)
	if err != nil {
		return c.usageError(err)
	}
	if opts.VendorDir != "" {
		if _, err := fix.CheckVendorDir(opts.VendorDir); err != nil {
			return c.usageError(err)
		}
	}
	dir, err := filepath.Abs(cmp.Or(c.dir, "."))
	if err != nil {
		return c.fail(err)
	}
	goCmd := &gocmd.Runner{Dir: c.dir, Verbose: opts.Verbose, Log: c.stderr}
	src := source.NewCache()
	// The filters are read first: a corrupt baseline or a bad revision
	// fails before anything is loaded.
	filters, base, err := c.filters(opts, src)
	if err != nil {
		return c.fail(err)
	}
	if opts.VendorDir != "" {
		path, err := fix.Vendor(goCmd, opts.VendorDir, opts.Safeprobe, opts.File.Path, c.stderr)
		if err != nil {
			return c.fail(err)
		}
		opts.Safeprobe = path
	}
	if opts.PythonHelperDir != "" {
		action, err := pyhelper.Write(dir, opts.PythonHelperDir)
		if err != nil {
			return c.fail(err)
		}
		fmt.Fprintf(c.stderr, "pidlint: %s %s: import pidprobe there\n", action, filepath.Join(opts.PythonHelperDir, pyhelper.Name))
	}
	fes, err := c.newFrontEnds(registered, runEnv{opts: opts, goCmd: goCmd, host: host})
	if err != nil {
		return c.fail(err)
	}
	run := frontend.Run{
		Dir: dir, Root: c.root(dir), Patterns: opts.Patterns, FrontEnds: fes, Source: src,
		Settings: frontend.Settings{Strict: opts.Strict, Disable: opts.Disable, Tests: opts.Tests, Debug: opts.FlowDebug},
	}
	rep, analyzed, err := run.Check()
	if err != nil {
		return c.fail(err)
	}
	if base != nil {
		base.Analyzed = analyzed
	}
	c.say(rep.Errors)
	c.say(rep.Notes)
	if opts.WriteBaseline != "" {
		return c.writeBaseline(opts.WriteBaseline, rep, src)
	}
	rep.Notes = nil
	err = filter.Apply(rep, filters...)
	c.say(rep.Notes)
	if err != nil {
		return c.fail(err)
	}
	left, err := c.output(opts, goCmd, rep, src)
	if err != nil {
		fmt.Fprintf(c.stderr, "pidlint: %v\n", err)
	}
	switch {
	case err != nil || len(rep.Errors) > 0:
		return exitError
	case left > 0:
		return exitFindings
	}
	return exitClean
}

// filters are the filters the options ask for, in the order they apply,
// and the baseline among them (nil for none), which learns what the run
// analyzed once it has run.
func (c command) filters(opts *config.Options, src *source.Cache) ([]filter.Filter, *filter.Baseline, error) {
	var fs []filter.Filter
	if f := opts.File; len(f.Exclude) > 0 {
		fs = append(fs, filter.Exclude{Dir: filepath.Dir(f.Path), Patterns: f.Exclude})
	}
	if !opts.Tests {
		fs = append(fs, filter.NoTests{})
	}
	if opts.NewFromRev != "" {
		changed, err := filter.ChangedSince(c.dir, opts.NewFromRev)
		if err != nil {
			return nil, nil, err
		}
		fs = append(fs, changed)
	}
	var base *filter.Baseline
	if opts.Baseline != "" {
		var err error
		if base, err = filter.ReadBaseline(opts.Baseline, src); err != nil {
			return nil, nil, err
		}
		fs = append(fs, base)
	}
	return fs, base, nil
}

// output applies or prints the findings as the options ask, and returns
// how many the run leaves: every one it reports, or with -fix those it did
// not fix.
func (c command) output(opts *config.Options, goCmd *gocmd.Runner, rep *finding.Report, src *source.Cache) (int, error) {
	if !opts.Fix && !opts.Diff {
		p, err := print.New(opts.Format, c.stdout, c.stderr)
		if err != nil {
			return 0, err
		}
		return len(rep.Findings), p.Print(rep)
	}
	var diff io.Writer
	if opts.Diff {
		diff = c.stdout
	}
	res, err := fix.Apply(rep.Findings, src, rep.Dir, diff)
	if err != nil {
		return len(rep.Findings), err
	}
	c.say(res.Notes)
	if opts.Diff {
		return len(rep.Findings), nil
	}
	res.PrintSummary(c.stderr, rep.Dir)
	if res.ImportsDefault {
		fix.TidyHint(goCmd, c.stderr)
	}
	return len(res.Left), nil
}

// writeBaseline records the run's findings in -write-baseline's file. A
// run with errors writes nothing: its findings are incomplete.
func (c command) writeBaseline(name string, rep *finding.Report, src *source.Cache) int {
	if len(rep.Errors) > 0 {
		return c.fail(fmt.Errorf("not writing baseline %s: some packages failed to load or analyze", name))
	}
	if err := filter.WriteBaseline(name, rep.Root, rep.Findings, src); err != nil {
		return c.fail(err)
	}
	fmt.Fprintf(c.stderr, "pidlint: wrote %s to baseline %s\n", fix.Plural(len(rep.Findings), "finding", "findings"), name)
	return exitClean
}

// explain prints the documentation of the named rules, or of all; with
// -markdown first, all of it as docs/rules.md.
func (c command) explain(ids []string) int {
	if len(ids) == 1 && (ids[0] == "-markdown" || ids[0] == "--markdown") {
		if err := explain.Markdown(c.stdout); err != nil {
			return c.fail(err)
		}
		return exitClean
	}
	if err := explain.Explain(c.stdout, ids); err != nil {
		return c.usageError(fmt.Errorf("-explain: %v", err))
	}
	return exitClean
}

// root is the directory reports name files relative to: the git work
// tree's top, or else the main module's directory, or else the directory
// pidlint runs in.
func (c command) root(dir string) string {
	if top, err := git.TopLevel(c.dir); err == nil {
		return top
	}
	return cmp.Or(gocmd.ModuleRoot(dir), dir)
}

// vetTool is the vet tool go vet runs: this executable.
func (c command) vetTool() (string, error) {
	if c.tool != "" {
		return c.tool, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find pidlint's own executable for go vet -vettool: %v", err)
	}
	return exe, nil
}

// hostGOOS is the GOOS the go command builds for when pidlint does not
// set one.
func hostGOOS() string {
	return cmp.Or(os.Getenv("GOOS"), runtime.GOOS)
}

func (c command) say(lines []string) {
	for _, l := range lines {
		fmt.Fprintf(c.stderr, "pidlint: %s\n", l)
	}
}

func (c command) fail(err error) int {
	fmt.Fprintf(c.stderr, "pidlint: %v\n", err)
	return exitError
}

// usageError prints a command line's problem as one line and returns the
// usage exit code.
func (c command) usageError(err error) int {
	fmt.Fprintf(c.stderr, "pidlint: %v (pidlint -help for more)\n", err)
	return exitUsage
}
