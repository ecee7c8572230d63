package main

// This file is pidlint's driver: it parses every flag in one place, has
// the go command analyze the packages once per GOOS (vetrun.go, plan.go),
// merges the findings of the builds into one list (merge.go), hands that
// list to the output the flags ask for, and computes the exit code.

import (
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/pidlint/pidlint/analyzer"
)

// Exit codes, as singlechecker's and go vet's.
const (
	exitClean    = 0
	exitError    = 1
	exitFindings = 3
)

// A driver runs pidlint over packages and prints the findings in one of
// the formats.
type driver struct {
	dir            string // where the go command and git run; "" is the current directory
	stdout, stderr io.Writer
	// tool is the vet tool the go command runs: this executable unless a
	// test sets it.
	tool string
}

// A finding is one diagnostic, with its positions resolved, as every
// output consumes it.
type finding struct {
	pos, end token.Position
	rule     string // PL00N, or "" for a diagnostic about a //pidlint:ignore directive
	category string // the diagnostic's category: the rule ID, or analyzer.RawProbe
	message  string
	fixes    []fix
	pkg      string   // the package (go vet's ID) that reported it first
	goos     []string // the GOOS builds that report it, sorted
}

// A fix is a suggested fix with resolved positions.
type fix struct {
	message string
	edits   []edit
}

type edit struct {
	pos, end token.Position // Offset is the byte offset in the file
	newText  string
}

// A report is what a printer prints.
type report struct {
	root     string // the directory file names are made relative to
	findings []finding
	errors   []string // load and analysis errors
	skipped  []string // packages left out of a GOOS build, and why
}

// formatValue is the -format flag.
type formatValue string

func (f *formatValue) String() string { return string(*f) }

func (f *formatValue) Set(s string) error {
	switch s {
	case "sarif", "github", "text":
		*f = formatValue(s)
		return nil
	}
	return fmt.Errorf("want sarif, github or text")
}

// defaultGOOS are the builds pidlint analyzes unless -goos says otherwise.
const defaultGOOS = "linux,darwin,windows,freebsd"

// options are the parsed command line.
type options struct {
	format     formatValue
	json       bool // -json: the findings as go vet -json prints them
	fix, diff  bool // apply the suggested fixes; -diff: print them as a diff instead
	newFromRev string
	revSet     bool
	tests      bool
	verbose    bool     // -v: print the go commands run
	goos       []string // the GOOS builds, the primary (host) one first
	// analyzerArgs are the analyzer's flags as set, passed on to the vet tool.
	analyzerArgs []string
	patterns     []string
}

const driverUsage = `Usage: pidlint [flags] packages

pidlint analyzes the packages as they build for each GOOS of -goos (by
default linux, darwin, windows and freebsd; -goos=host only for this
machine's), with the go command doing the loading and caching (go vet
-vettool), and reports each finding once, naming the OSes where the code
is wrong.

Output: text on standard error by default; -json prints go vet's JSON on
standard output; -format=sarif a SARIF 2.1.0 log, -format=github GitHub
Actions annotations (::error file=…,line=…::message). -fix applies the
suggested fixes, -diff prints them as a unified diff instead.
-new-from-rev=REV reports only findings on lines added or changed since
the git revision REV (files git does not track count as new). Exit status:
0 when clean, 3 when it reports findings, 1 on errors.

Flags:
`

// parseFlags parses the command line. On a usage error or -help it prints
// what to and returns ok false with the exit code.
func (d *driver) parseFlags(args []string) (opts *options, code int, ok bool) {
	opts = &options{format: "text"}
	a := analyzer.New()
	fs := flag.NewFlagSet("pidlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.Var(&opts.format, "format", "output format: sarif, github or text")
	fs.BoolVar(&opts.json, "json", false, "print the findings as JSON (go vet -json's form) on standard output")
	fs.BoolVar(&opts.fix, "fix", false, "apply the suggested fixes")
	fs.BoolVar(&opts.diff, "diff", false, "print the suggested fixes as a unified diff; change no file")
	fs.StringVar(&opts.newFromRev, "new-from-rev", "", "report only findings on lines added or changed since this git revision")
	fs.BoolVar(&opts.tests, "test", true, "also analyze test files")
	fs.BoolVar(&opts.verbose, "v", false, "print the go commands run, one line each")
	goosFlag := fs.String("goos", defaultGOOS, "comma-separated GOOS values to analyze the code for, or host for this machine's only")
	a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(d.stderr, driverUsage)
			fs.SetOutput(d.stderr)
			fs.PrintDefaults()
			return nil, exitClean, false
		}
		fmt.Fprintf(d.stderr, "pidlint: %v (pidlint -help lists the flags)\n", err)
		return nil, exitError, false
	}
	fs.Visit(func(f *flag.Flag) {
		switch {
		case f.Name == "new-from-rev":
			opts.revSet = true
		case a.Flags.Lookup(f.Name) != nil:
			opts.analyzerArgs = append(opts.analyzerArgs, "-"+f.Name+"="+f.Value.String())
		}
	})
	formatSet := false
	fs.Visit(func(f *flag.Flag) { formatSet = formatSet || f.Name == "format" })
	switch {
	case formatSet && (opts.json || opts.fix || opts.diff):
		name := map[bool]string{true: "json", false: "fix"}[opts.json]
		if !opts.json && !opts.fix {
			name = "diff"
		}
		fmt.Fprintf(d.stderr, "pidlint: -%s cannot be combined with -format; run pidlint -%s without it\n", name, name)
		return nil, exitError, false
	case opts.json && (opts.fix || opts.diff):
		fmt.Fprintln(d.stderr, "pidlint: -json cannot be combined with -fix or -diff")
		return nil, exitError, false
	case opts.revSet && strings.TrimSpace(opts.newFromRev) == "":
		fmt.Fprintln(d.stderr, "pidlint: -new-from-rev needs a git revision, e.g. -new-from-rev=origin/main")
		return nil, exitError, false
	case fs.NArg() == 0:
		fmt.Fprintln(d.stderr, "pidlint: no packages given, e.g. ./...")
		return nil, exitError, false
	}
	var err error
	if opts.goos, err = parseGOOS(*goosFlag, hostGOOS()); err != nil {
		fmt.Fprintf(d.stderr, "pidlint: -goos=%s: %v\n", *goosFlag, err)
		return nil, exitError, false
	}
	opts.patterns = fs.Args()
	return opts, exitClean, true
}

// hostGOOS is the GOOS the go command builds for when pidlint does not
// set one.
func hostGOOS() string {
	if g := os.Getenv("GOOS"); g != "" {
		return g
	}
	return runtime.GOOS
}

// parseGOOS parses -goos: a comma-separated list of GOOS values, or
// "host". The host's GOOS comes first when listed: its build covers every
// package, the others only what differs.
func parseGOOS(s, host string) ([]string, error) {
	var list []string
	for g := range strings.SplitSeq(s, ",") {
		g = strings.TrimSpace(g)
		switch {
		case g == "":
			continue
		case g == "host":
			g = host
		case !knownGOOS[g]:
			return nil, fmt.Errorf("unknown GOOS %q", g)
		}
		if !slices.Contains(list, g) {
			list = append(list, g)
		}
	}
	if len(list) == 0 {
		return nil, errors.New("no GOOS given")
	}
	if i := slices.Index(list, host); i > 0 {
		list = append(append([]string{host}, list[:i]...), list[i+1:]...)
	}
	return list, nil
}

// knownGOOS are the values of GOOS the go command accepts.
var knownGOOS = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "js": true, "linux": true, "netbsd": true,
	"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true,
}

// run runs the driver with the command-line arguments args (without the
// program name) and returns the exit code.
func (d *driver) run(args []string) int {
	opts, code, ok := d.parseFlags(args)
	if !ok {
		return code
	}
	// Read the changes first: a bad revision fails fast, before loading.
	var changed *changes
	if opts.revSet {
		var err error
		if changed, err = gitChanges(d.dir, opts.newFromRev); err != nil {
			fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
			return exitError
		}
	}
	rep, err := d.analyze(opts)
	if err != nil {
		fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
		return exitError
	}
	if changed != nil {
		rep.root = changed.root
		rep.findings = slices.DeleteFunc(rep.findings, func(f finding) bool { return !changed.has(f.pos) })
	}
	for _, e := range rep.errors {
		fmt.Fprintf(d.stderr, "pidlint: %s\n", e)
	}
	for _, s := range rep.skipped {
		fmt.Fprintf(d.stderr, "pidlint: %s\n", s)
	}
	err = d.output(opts, rep)
	if err != nil {
		fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
	}
	return exitCode(opts, rep, err)
}

// output prints or applies the findings as the flags ask.
func (d *driver) output(opts *options, rep *report) error {
	switch {
	case opts.fix || opts.diff:
		return applyFixes(rep.findings, rep.root, opts.diff, d.stdout, d.stderr)
	case opts.json:
		return writeJSON(d.stdout, rep)
	case opts.format == "sarif":
		return writeSARIF(d.stdout, rep)
	case opts.format == "github":
		return writeGitHub(d.stdout, rep)
	}
	return writeText(d.stderr, rep)
}

// exitCode is the run's exit status: 1 when anything failed, else 3 when
// it reported findings (not with -json, -fix or -diff, as go vet), else 0.
func exitCode(opts *options, rep *report, outputErr error) int {
	switch {
	case outputErr != nil || len(rep.errors) > 0:
		return exitError
	case len(rep.findings) > 0 && !opts.json && !opts.fix && !opts.diff:
		return exitFindings
	}
	return exitClean
}

// writeText prints findings as go vet does: file:line:col: message.
func writeText(w io.Writer, rep *report) error {
	for _, f := range rep.findings {
		if _, err := fmt.Fprintf(w, "%s: %s\n", f.pos, f.message); err != nil {
			return err
		}
	}
	return nil
}

// root returns the directory that reports name files relative to: the
// git work tree's top, or else the main module's directory, or else the
// directory pidlint runs in.
func (d *driver) root(moduleDir string) string {
	if top, err := gitTopLevel(d.dir); err == nil {
		return top
	}
	if moduleDir != "" {
		return moduleDir
	}
	if d.dir != "" {
		return d.dir
	}
	wd, _ := os.Getwd()
	return wd
}

// relPath returns name relative to root with forward slashes, or "" when
// name is not under root.
func relPath(root, name string) string {
	if root == "" || name == "" {
		return ""
	}
	rel, err := filepath.Rel(canonical(root), canonical(name))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// canonical resolves symbolic links in an absolute path, so that a root
// and a file name reached through different links compare equal.
func canonical(name string) string {
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	if real, err := filepath.EvalSymlinks(name); err == nil {
		return real
	}
	return name
}

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %v: %s", args[0], err, msg)
		}
		return "", fmt.Errorf("git %s: %v", args[0], err)
	}
	return string(out), nil
}

// gitTopLevel returns the top directory of the git work tree holding dir.
func gitTopLevel(dir string) (string, error) {
	out, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}
