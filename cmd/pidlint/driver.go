package main

// This file is the driver behind -format and -new-from-rev: it loads the
// packages with go/packages, runs the analyzer with checker.Analyze and
// hands the findings to a printer. Without those flags main runs
// singlechecker instead, whose behaviour (and go vet handshake) it keeps.

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/pidlint/pidlint/analyzer"
)

// Exit codes, as singlechecker's.
const (
	exitClean    = 0
	exitError    = 1
	exitFindings = 3
)

// driverFlags are the flags that select this driver over singlechecker.
var driverFlags = []string{"format", "new-from-rev", "baseline", "write-baseline"}

// wantsDriver reports whether args use a flag that only this driver has.
func wantsDriver(args []string) bool {
	for _, arg := range args {
		if arg == "--" {
			break
		}
		if name, ok := flagName(arg); ok && slices.Contains(driverFlags, name) {
			return true
		}
	}
	return false
}

// flagName returns the name of the flag arg sets: "format" for
// "-format=sarif" or "--format".
func flagName(arg string) (string, bool) {
	name, ok := strings.CutPrefix(arg, "-")
	if !ok || name == "" {
		return "", false
	}
	name = strings.TrimPrefix(name, "-")
	name, _, _ = strings.Cut(name, "=")
	return name, name != ""
}

// A driver runs pidlint over packages and prints the findings in one of
// the formats.
type driver struct {
	dir            string // where packages are loaded and git runs; "" is the current directory
	stdout, stderr io.Writer
}

// A finding is one diagnostic, with its positions resolved.
type finding struct {
	pos, end token.Position
	rule     string // PL00N, or "" for a diagnostic about a //pidlint:ignore directive
	category string // the diagnostic's category: the rule ID, or analyzer.RawProbe
	message  string
	fixes    []fix
}

// A fix is a suggested fix with resolved positions.
type fix struct {
	message string
	edits   []edit
}

type edit struct {
	pos, end token.Position
	newText  string
}

// A report is what a printer prints.
type report struct {
	root     string // the directory file names are made relative to
	findings []finding
	errors   []string        // load and analysis errors
	files    map[string]bool // the files analyzed, relative to root
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

const driverUsage = `Usage: pidlint -format=sarif|github|text [-new-from-rev=REV] [-test=false] [-strict] [-safeprobe=path] [-disable=PL00N,…] packages

-format=sarif prints a SARIF 2.1.0 log on standard output, -format=github
GitHub Actions annotations (::error file=…,line=…::message), -format=text
what pidlint prints without -format. -new-from-rev=REV reports only
findings on lines added or changed since the git revision REV (files git
does not track count as new). Exit status: 0 when clean, 3 when it reports
findings, 1 on errors.

Flags:
`

// run runs the driver with the command-line arguments args (without the
// program name) and returns the exit code.
func (d *driver) run(args []string) int {
	for _, arg := range args {
		if arg == "--" {
			break
		}
		if name, ok := flagName(arg); ok && (name == "fix" || name == "diff" || name == "json") {
			fmt.Fprintf(d.stderr, "pidlint: -%s cannot be combined with -format or -new-from-rev; run pidlint -%s without them\n", name, name)
			return exitError
		}
	}
	a := analyzer.New()
	fs := flag.NewFlagSet("pidlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	format := formatValue("text")
	fs.Var(&format, "format", "output format: sarif, github or text")
	newFromRev := fs.String("new-from-rev", "", "report only findings on lines added or changed since this git revision")
	tests := fs.Bool("test", true, "also analyze test files")
	baselineName := fs.String("baseline", "", "report only findings not recorded in this baseline file")
	writeBaselineName := fs.String("write-baseline", "", "record the findings in this baseline file and exit 0")
	a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(d.stderr, driverUsage)
			fs.SetOutput(d.stderr)
			fs.PrintDefaults()
			return exitClean
		}
		fmt.Fprintf(d.stderr, "pidlint: %v (pidlint -format=text -help lists the flags)\n", err)
		return exitError
	}
	revSet := false
	fs.Visit(func(f *flag.Flag) { revSet = revSet || f.Name == "new-from-rev" })
	if revSet && strings.TrimSpace(*newFromRev) == "" {
		fmt.Fprintln(d.stderr, "pidlint: -new-from-rev needs a git revision, e.g. -new-from-rev=origin/main")
		return exitError
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(d.stderr, "pidlint: no packages given, e.g. ./...")
		return exitError
	}

	// Read the baseline and the changes first: a corrupt baseline or a bad
	// revision fails fast, before loading.
	var base *baseline
	if *baselineName != "" {
		var err error
		if base, err = readBaseline(*baselineName); err != nil {
			fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
			return exitError
		}
	}
	var changed *changes
	if revSet {
		var err error
		if changed, err = gitChanges(d.dir, *newFromRev); err != nil {
			fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
			return exitError
		}
	}

	root := "" // found from the packages
	if changed != nil {
		root = changed.root
	}
	rep, err := d.analyze(a, fs.Args(), *tests, root)
	if err != nil {
		fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
		return exitError
	}
	if changed != nil {
		rep.findings = slices.DeleteFunc(rep.findings, func(f finding) bool { return !changed.has(f.pos) })
	}
	for _, e := range rep.errors {
		fmt.Fprintf(d.stderr, "pidlint: %s\n", e)
	}
	if *writeBaselineName != "" {
		if len(rep.errors) > 0 {
			fmt.Fprintf(d.stderr, "pidlint: not writing baseline %s: some packages failed to load or analyze\n", *writeBaselineName)
			return exitError
		}
		if err := writeBaseline(*writeBaselineName, rep.root, rep.findings); err != nil {
			fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
			return exitError
		}
		fmt.Fprintf(d.stderr, "pidlint: wrote %d findings to baseline %s\n", len(rep.findings), *writeBaselineName)
		return exitClean
	}
	if base != nil {
		fresh, stale, err := base.filter(rep.root, rep.findings, func(file string) bool { return rep.files[file] })
		if err != nil {
			fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
			return exitError
		}
		rep.findings = fresh
		base.printStale(d.stderr, stale)
	}
	switch format {
	case "sarif":
		err = writeSARIF(d.stdout, rep)
	case "github":
		err = writeGitHub(d.stdout, rep)
	default:
		err = writeText(d.stderr, rep)
	}
	switch {
	case err != nil:
		fmt.Fprintf(d.stderr, "pidlint: %v\n", err)
		return exitError
	case len(rep.errors) > 0:
		return exitError
	case len(rep.findings) > 0:
		return exitFindings
	}
	return exitClean
}

// analyze loads the packages that patterns name, with their tests if
// tests is set, and runs a on them. The report names files relative to
// root, or if root is "", to the directory d.root finds.
func (d *driver) analyze(a *analysis.Analyzer, patterns []string, tests bool, root string) (*report, error) {
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Dir:   d.dir,
		Tests: tests,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	if root == "" {
		root = d.root(pkgs)
	}
	rep := &report{root: root, files: make(map[string]bool)}
	for _, p := range pkgs {
		for _, name := range slices.Concat(p.CompiledGoFiles, p.IgnoredFiles) {
			if rel := relPath(root, name); rel != "" {
				rep.files[rel] = true
			}
		}
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Pos == "" || e.Pos == "-" {
				rep.errors = append(rep.errors, e.Msg)
			} else {
				rep.errors = append(rep.errors, e.Error())
			}
		}
		if p.Module != nil && p.Module.Error != nil {
			rep.errors = append(rep.errors, p.Module.Error.Err)
		}
	})
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	type key struct {
		pos, end token.Position
		message  string
	}
	seen := make(map[key]bool)
	for act := range graph.All() {
		if act.Err != nil {
			// A package that failed to load has said why.
			if act.IsRoot && act.Analyzer == a && len(act.Package.Errors) == 0 {
				rep.errors = append(rep.errors, fmt.Sprintf("%s: %v", act.Package.ID, act.Err))
			}
			continue
		}
		if !act.IsRoot {
			continue
		}
		fset := act.Package.Fset
		for _, diag := range act.Diagnostics {
			f := newFinding(fset, diag)
			// A file in a package and its test variant is analyzed twice.
			if k := (key{f.pos, f.end, f.message}); !seen[k] {
				seen[k] = true
				rep.findings = append(rep.findings, f)
			}
		}
	}
	slices.SortFunc(rep.findings, func(x, y finding) int {
		return cmp.Or(
			cmp.Compare(x.pos.Filename, y.pos.Filename),
			cmp.Compare(x.pos.Line, y.pos.Line),
			cmp.Compare(x.pos.Column, y.pos.Column),
			cmp.Compare(x.message, y.message),
		)
	})
	// A package and its test variant report the same load error.
	slices.Sort(rep.errors)
	rep.errors = slices.Compact(rep.errors)
	return rep, nil
}

func newFinding(fset *token.FileSet, diag analysis.Diagnostic) finding {
	f := finding{
		pos:      fset.Position(diag.Pos),
		end:      fset.Position(diag.End),
		category: diag.Category,
		message:  diag.Message,
	}
	if id, _, ok := strings.Cut(diag.Message, ": "); ok {
		if r, ok := analyzer.LookupRule(id); ok && r.ID == id {
			f.rule = id
		}
	}
	for _, sf := range diag.SuggestedFixes {
		fx := fix{message: sf.Message}
		for _, te := range sf.TextEdits {
			end := te.End
			if !end.IsValid() {
				end = te.Pos
			}
			fx.edits = append(fx.edits, edit{pos: fset.Position(te.Pos), end: fset.Position(end), newText: string(te.NewText)})
		}
		f.fixes = append(f.fixes, fx)
	}
	return f
}

// root returns the directory that reports name files relative to: the
// git work tree's top, or else the main module's directory, or else the
// directory the packages were loaded from.
func (d *driver) root(pkgs []*packages.Package) string {
	if top, err := gitTopLevel(d.dir); err == nil {
		return top
	}
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Main && p.Module.Dir != "" {
			return p.Module.Dir
		}
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

// writeText prints findings as singlechecker does: file:line:col: message.
func writeText(w io.Writer, rep *report) error {
	for _, f := range rep.findings {
		if _, err := fmt.Fprintf(w, "%s: %s\n", f.pos, f.message); err != nil {
			return err
		}
	}
	return nil
}
