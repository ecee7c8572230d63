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

	"golang.org/x/tools/go/analysis"

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
	verbose    bool // -v: print the go commands run
	// baseline and writeBaseline name baseline files (baseline.go);
	// vendorDir is -vendor-safeprobe's directory (vendor.go).
	baseline, writeBaseline string
	vendorDir               string
	version                 bool     // -version or -V: print the version
	goos                    []string // the GOOS builds, the primary (host) one first
	// analyzerArgs are the analyzer's flags as set, passed on to the vet tool.
	analyzerArgs []string
	patterns     []string
}

// defineFlags defines every flag of the driver, the analyzer's among
// them, on a new flag set that stores into opts. It returns the set, the
// analyzer whose flags it holds, and the -goos value.
func defineFlags(opts *options) (*flag.FlagSet, *analysis.Analyzer, *string) {
	a := analyzer.New()
	fs := flag.NewFlagSet("pidlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.Var(&opts.format, "format", "output `format`: text, sarif (a SARIF 2.1.0 log on standard output) or github (GitHub Actions annotations on standard output)")
	fs.BoolVar(&opts.json, "json", false, "print the findings as go vet -json does, on standard output")
	fs.BoolVar(&opts.fix, "fix", false, "apply the suggested fixes, then list the findings left")
	fs.BoolVar(&opts.diff, "diff", false, "print the suggested fixes as a unified diff; change no file")
	fs.StringVar(&opts.newFromRev, "new-from-rev", "", "report only findings on lines added or changed since the git `revision`")
	fs.BoolVar(&opts.tests, "test", true, "also analyze test files")
	fs.BoolVar(&opts.verbose, "v", false, "print the go commands run, one line each")
	goosFlag := fs.String("goos", defaultGOOS, "comma-separated `GOOS` values to analyze the code for, or host for this machine's only")
	fs.StringVar(&opts.baseline, "baseline", "", "report only findings not recorded in the baseline `file`, and its stale entries")
	fs.StringVar(&opts.writeBaseline, "write-baseline", "", "record every finding in the baseline `file` and exit 0")
	fs.StringVar(&opts.vendorDir, "vendor-safeprobe", "", "write safeprobe into the `directory` of the module (e.g. internal/safeprobe), or update it there, and point the fixes at it")
	fs.BoolVar(&opts.version, "version", false, "print the version pidlint was built from")
	fs.BoolVar(&opts.version, "V", false, "the same as -version")
	a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	return fs, a, goosFlag
}

// parseFlags parses the command line. On a usage error, -help or
// -version it prints what to and returns ok false with the exit code.
func (d *driver) parseFlags(args []string) (opts *options, code int, ok bool) {
	opts = &options{format: "text"}
	fs, a, goosFlag := defineFlags(opts)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeHelp(d.stdout, fs)
			return nil, exitClean, false
		}
		return nil, d.usageError("%v", err), false
	}
	if opts.version {
		writeVersion(d.stdout)
		return nil, exitClean, false
	}
	set := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) {
		set[f.Name] = true
		if a.Flags.Lookup(f.Name) != nil {
			opts.analyzerArgs = append(opts.analyzerArgs, "-"+f.Name+"="+f.Value.String())
		}
	})
	opts.revSet = set["new-from-rev"]
	// Flags that choose what becomes of the findings exclude each other
	// (-fix -diff is -diff, as in go vet).
	var modes []string
	for _, m := range []struct {
		name string
		on   bool
	}{{"format", set["format"]}, {"json", opts.json}, {"fix", opts.fix && !opts.diff}, {"diff", opts.diff}, {"write-baseline", set["write-baseline"]}} {
		if m.on {
			modes = append(modes, "-"+m.name)
		}
	}
	switch {
	case len(modes) > 1:
		return nil, d.usageError("%s cannot be combined with %s: each says what to do with the findings", modes[0], strings.Join(modes[1:], ", ")), false
	case opts.writeBaseline != "" && (opts.baseline != "" || opts.revSet):
		return nil, d.usageError("-write-baseline records every finding: drop -baseline and -new-from-rev"), false
	case opts.vendorDir != "" && opts.diff:
		return nil, d.usageError("-vendor-safeprobe writes files and -diff changes none: vendor first, then run -diff"), false
	case set["baseline"] && opts.baseline == "", set["write-baseline"] && opts.writeBaseline == "":
		return nil, d.usageError("-baseline and -write-baseline need a file name, e.g. -baseline=pidlint.baseline"), false
	case set["vendor-safeprobe"] && opts.vendorDir == "":
		return nil, d.usageError("-vendor-safeprobe needs a directory of the module, e.g. -vendor-safeprobe=internal/safeprobe"), false
	case opts.revSet && strings.TrimSpace(opts.newFromRev) == "":
		return nil, d.usageError("-new-from-rev needs a git revision, e.g. -new-from-rev=origin/main"), false
	case fs.NArg() == 0:
		return nil, d.usageError("no packages given, e.g. pidlint ./..."), false
	}
	var err error
	if opts.goos, err = parseGOOS(*goosFlag, hostGOOS()); err != nil {
		return nil, d.usageError("-goos=%s: %v", *goosFlag, err), false
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
	if err := checkModule(d.dir, opts.patterns); err != nil {
		fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
		return exitError
	}
	// Read the baseline and the changes first: a corrupt baseline or a bad
	// revision fails fast, before loading.
	var base *baseline
	if opts.baseline != "" {
		var err error
		if base, err = readBaseline(opts.baseline); err != nil {
			fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
			return exitError
		}
	}
	if opts.vendorDir != "" {
		path, err := runVendor(d.dir, opts.vendorDir, opts.analyzerFlag("safeprobe"), d.stderr)
		if err != nil {
			fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
			return exitError
		}
		opts.analyzerArgs = append(opts.analyzerArgs, "-safeprobe="+path)
	}
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
	if opts.writeBaseline != "" {
		return d.writeBaseline(opts, rep)
	}
	if base != nil {
		if err := d.applyBaseline(base, opts, rep); err != nil {
			fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
			return exitError
		}
	}
	left, err := d.output(opts, rep)
	if err != nil {
		fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
	}
	return exitCode(rep, left, err)
}

// output prints or applies the findings as the flags ask, and returns how
// many the run leaves: every one it reports, or with -fix those it did
// not fix.
func (d *driver) output(opts *options, rep *report) (int, error) {
	switch {
	case opts.fix && !opts.diff:
		res, err := applyFixes(rep.findings, rep.root, false, d.stdout, d.stderr)
		if err != nil {
			return len(rep.findings), err
		}
		printFixSummary(d.stderr, res)
		if res.importsDefault {
			d.tidyHint()
		}
		return len(res.left), nil
	case opts.diff:
		_, err := applyFixes(rep.findings, rep.root, true, d.stdout, d.stderr)
		return len(rep.findings), err
	case opts.json:
		return len(rep.findings), writeJSON(d.stdout, rep)
	case opts.format == "sarif":
		return len(rep.findings), writeSARIF(d.stdout, rep)
	case opts.format == "github":
		return len(rep.findings), writeGitHub(d.stdout, rep)
	}
	return len(rep.findings), writeText(d.stderr, rep)
}

// exitCode is the run's exit status, the same in every mode: 1 when
// anything failed, else 3 when findings are left (reported, or with -fix
// not fixed), else 0. Usage errors (2) never get this far.
func exitCode(rep *report, left int, outputErr error) int {
	switch {
	case outputErr != nil || len(rep.errors) > 0:
		return exitError
	case left > 0:
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

// analyzerFlag returns the value of the analyzer flag name as set on the
// command line, or "".
func (o *options) analyzerFlag(name string) string {
	v := ""
	for _, a := range o.analyzerArgs {
		if rest, ok := strings.CutPrefix(a, "-"+name+"="); ok {
			v = rest
		}
	}
	return v
}
