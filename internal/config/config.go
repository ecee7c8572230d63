// Package config reads what a pidlint run is asked to do: its command
// line, checked in one place, into the Options every stage reads.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pidlint/pidlint/internal/rules"
)

// Options are a run's settings.
type Options struct {
	Format     string // text, json, sarif or github
	Fix, Diff  bool   // apply the suggested fixes; Diff: print them as a diff instead
	NewFromRev string // "" unless -new-from-rev is given
	Tests      bool
	Verbose    bool // print the go commands run
	// Baseline and WriteBaseline name baseline files; VendorDir is
	// -vendor-safeprobe's directory.
	Baseline, WriteBaseline string
	VendorDir               string
	PythonHelperDir         string   // -vendor-python-helper's directory
	GOOS                    []string // the GOOS builds, the primary (host) one first
	// Strict, Disable and Safeprobe say what the rules report and fix:
	// -strict; -disable's rule IDs, of any language; the import path of
	// the safeprobe Go fixes call, "" for the default.
	Strict    bool
	Disable   []string
	Safeprobe string
	FlowDebug bool // -flow-debug
	// Languages are the languages to check; nil for every one with
	// files to check.
	Languages []*rules.Language
	Patterns  []string
	// File is the config file the settings came from, with what only
	// it sets (the paths to exclude).
	File *File

	Help, Version bool // print the help screen or the version, and stop
}

// A UsageError is a command line pidlint cannot run.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func usage(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}

// DefaultGOOS are the builds pidlint analyzes unless -goos says otherwise.
const DefaultGOOS = "linux,darwin,windows,freebsd"

// set is a flag set of the command with the values it stores into.
type set struct {
	*flag.FlagSet
	goos      string
	languages string
	format    string
	json      bool
}

// defaultSafeprobe is the import path of safeprobe, which fixes call
// unless -safeprobe names another (the analyzer's DefaultSafeprobePath).
const defaultSafeprobe = "github.com/pidlint/pidlint/safeprobe"

// newSet defines every flag of the command, storing into o.
func newSet(o *Options) *set {
	s := &set{FlagSet: flag.NewFlagSet("pidlint", flag.ContinueOnError)}
	s.SetOutput(io.Discard)
	s.Usage = func() {}
	s.StringVar(&s.format, "format", "text", "output `format`: text, sarif (a SARIF 2.1.0 log on standard output) or github (GitHub Actions annotations on standard output)")
	s.BoolVar(&s.json, "json", false, "print the findings as go vet -json does, on standard output")
	s.BoolVar(&o.Fix, "fix", false, "apply the suggested fixes, then list the findings left")
	s.BoolVar(&o.Diff, "diff", false, "print the suggested fixes as a unified diff; change no file")
	s.StringVar(&o.NewFromRev, "new-from-rev", "", "report only findings on lines added or changed since the git `revision`")
	s.BoolVar(&o.Tests, "test", true, "also analyze test files")
	s.BoolVar(&o.Verbose, "v", false, "print the go commands run, one line each")
	s.StringVar(&s.goos, "goos", DefaultGOOS, "comma-separated `GOOS` values to analyze the code for, or host for this machine's only")
	s.StringVar(&s.languages, "languages", "", "comma-separated `languages` to check, of "+rules.LanguageNames(rules.Languages)+" (default: every one with files to check)")
	s.BoolVar(&o.FlowDebug, "flow-debug", false, "say what the Go rules' PID value flow skips and why (a function too large, a package the SSA builder cannot take)")
	s.BoolVar(&o.Strict, "strict", false, "also report raw probes that are correct where they stand (category raw-probe): for code that routes every probe through safeprobe")
	s.Var((*ruleList)(&o.Disable), "disable", "comma-separated `rules` not to report, by ID or name, e.g. PL004,shell-probe")
	s.StringVar(&o.Safeprobe, "safeprobe", "", "import `path` of the safeprobe package that Go fixes call (default "+defaultSafeprobe+")")
	s.StringVar(&o.Baseline, "baseline", "", "report only findings not recorded in the baseline `file`, and its stale entries")
	s.StringVar(&o.WriteBaseline, "write-baseline", "", "record every finding in the baseline `file` and exit 0")
	s.StringVar(&o.VendorDir, "vendor-safeprobe", "", "write safeprobe into the `directory` of the module (e.g. internal/safeprobe), or update it there, and point the fixes at it")
	s.StringVar(&o.PythonHelperDir, "vendor-python-helper", "", "write pidprobe.py, the standard-library module the Python fixes call, into the `directory` (e.g. tools), or update it there")
	s.BoolVar(&o.Version, "version", false, "print the version pidlint was built from")
	s.BoolVar(&o.Version, "V", false, "the same as -version")
	return s
}

// ruleList is a flag.Value of comma-separated rule IDs or names; it holds
// their IDs.
type ruleList []string

func (l *ruleList) String() string { return strings.Join(*l, ",") }

func (l *ruleList) Set(s string) error {
	ids, err := rules.Parse(s)
	if err != nil {
		return err
	}
	*l = ids
	return nil
}

// Parse parses the command line (without the program name) over the
// config file of dir; host is the GOOS the go command builds for. A
// command line or a config file it cannot run is a *UsageError.
func Parse(args []string, host, dir string) (*Options, error) {
	o := &Options{}
	s := newSet(o)
	if err := s.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			o.Help = true
			return o, nil
		}
		return nil, usage("%v", err)
	}
	if o.Version {
		return o, nil
	}
	given := make(map[string]bool)
	s.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch s.format {
	case "text", "sarif", "github":
		o.Format = s.format
	default:
		return nil, usage("invalid value %q for flag -format: want sarif, github or text", s.format)
	}
	if s.json {
		o.Format = "json"
	}
	// Flags that choose what becomes of the findings exclude each other
	// (-fix -diff is -diff, as in go vet).
	var modes []string
	for _, m := range []struct {
		name string
		on   bool
	}{{"format", given["format"]}, {"json", s.json}, {"fix", o.Fix && !o.Diff}, {"diff", o.Diff}, {"write-baseline", given["write-baseline"]}} {
		if m.on {
			modes = append(modes, "-"+m.name)
		}
	}
	switch {
	case len(modes) > 1:
		return nil, usage("%s cannot be combined with %s: each says what to do with the findings", modes[0], strings.Join(modes[1:], ", "))
	case o.WriteBaseline != "" && (o.Baseline != "" || given["new-from-rev"]):
		return nil, usage("-write-baseline records every finding: drop -baseline and -new-from-rev")
	case o.VendorDir != "" && o.Diff:
		return nil, usage("-vendor-safeprobe writes files and -diff changes none: vendor first, then run -diff")
	case o.PythonHelperDir != "" && o.Diff:
		return nil, usage("-vendor-python-helper writes files and -diff changes none: vendor first, then run -diff")
	case given["vendor-python-helper"] && o.PythonHelperDir == "":
		return nil, usage("-vendor-python-helper needs a directory, e.g. -vendor-python-helper=tools")
	case given["baseline"] && o.Baseline == "", given["write-baseline"] && o.WriteBaseline == "":
		return nil, usage("-baseline and -write-baseline need a file name, e.g. -baseline=pidlint.baseline")
	case given["vendor-safeprobe"] && o.VendorDir == "":
		return nil, usage("-vendor-safeprobe needs a directory of the module, e.g. -vendor-safeprobe=internal/safeprobe")
	case given["new-from-rev"] && strings.TrimSpace(o.NewFromRev) == "":
		return nil, usage("-new-from-rev needs a git revision, e.g. -new-from-rev=origin/main")
	case s.NArg() == 0:
		return nil, usage("no packages given, e.g. pidlint ./...")
	}
	var err error
	if o.File, err = FindFile(dir); err != nil {
		return nil, usage("%v", err)
	}
	o.fromFile(given, s)
	if o.GOOS, err = ParseGOOS(s.goos, host); err != nil {
		return nil, usage("-goos=%s: %v", s.goos, err)
	}
	if s.languages != "" {
		if o.Languages, err = rules.ParseLanguages(strings.Split(s.languages, ",")); err != nil {
			return nil, usage("-languages=%s: %v", s.languages, err)
		}
	}
	o.Patterns = s.Args()
	return o, nil
}

// fromFile takes the settings of the config file that no flag given sets.
func (o *Options) fromFile(given map[string]bool, s *set) {
	f := o.File
	if !given["goos"] && len(f.GOOS) > 0 {
		s.goos = strings.Join(f.GOOS, ",")
	}
	if !given["languages"] && len(f.Languages) > 0 {
		s.languages = strings.Join(f.Languages, ",")
	}
	if !given["disable"] && len(f.Disable) > 0 {
		o.Disable = f.Disable
	}
	if !given["safeprobe"] && f.Safeprobe != "" {
		o.Safeprobe = f.Safeprobe
	}
	if !given["strict"] && f.Strict != nil {
		o.Strict = *f.Strict
	}
}
