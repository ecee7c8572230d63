package config

// The one help screen, with every flag in its group and the exit codes.

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pidlint/pidlint/internal/explain"
)

// flagGroups orders the help screen. Every flag of the driver belongs to
// exactly one group (TestHelp checks); explain and help are handled before
// the flags are parsed, and described in pseudoFlags.
var flagGroups = []struct {
	title string
	flags []string
}{
	{"What to analyze", []string{"goos", "languages", "test", "strict", "disable", "flow-debug"}},
	{"Output (default: text on standard error, as go vet)", []string{"format", "json", "v"}},
	{"Fixing", []string{"fix", "diff", "safeprobe", "vendor-safeprobe", "vendor-python-helper"}},
	{"Reporting only new findings", []string{"new-from-rev", "baseline", "write-baseline"}},
	{"About pidlint", []string{"version", "V", "explain", "help"}},
}

const helpHeader = `pidlint reports unsafe process-liveness checks (PID probes that are
wrong on some OS) in Go packages, as they build for each GOOS of -goos.

Usage:
  pidlint [flags] packages                e.g. pidlint ./...
  pidlint -explain [-markdown] [PL00N…]   the rules' documentation
  go vet -vettool=$(command -v pidlint) ./...
  go fix -fixtool=$(command -v pidlint) ./...
`

// pseudoFlags are the help lines of what main handles before parsing.
var pseudoFlags = map[string]string{
	"explain": "  -explain [-markdown] [PL00N…]\n    \tprint the rules' text with a bad and a good example (as the first argument)\n",
	"help":    "  -help\n    \tprint this screen\n",
}

const helpExitCodes = `Exit status, the same with every flag:
  0  no findings (with -fix: none left unfixed)
  3  findings reported (with -fix: some need a hand)
  1  an error: a package that does not load or type-check, a file that
     cannot be read or written, a bad baseline or revision
  2  a command line pidlint cannot run: a bad flag or value, no packages
`

// WriteHelp prints the help screen: every flag, grouped.
func WriteHelp(w io.Writer) {
	fs := newSet(&Options{})
	fmt.Fprint(w, helpHeader)
	for _, g := range flagGroups {
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, name := range g.flags {
			if f := fs.Lookup(name); f != nil {
				writeFlag(w, f)
			} else if text, ok := pseudoFlags[name]; ok {
				fmt.Fprint(w, text)
			}
		}
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, helpExitCodes)
	fmt.Fprintf(w, "\nRules %s: pidlint -explain, or docs/rules.md.\n", explain.RuleRanges())
}

// writeFlag prints one flag as flag.PrintDefaults does.
func writeFlag(w io.Writer, f *flag.Flag) {
	arg, usage := flag.UnquoteUsage(f)
	line := "  -" + f.Name
	if arg != "" {
		line += " " + arg
	}
	fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	if def := f.DefValue; def != "" && def != "false" {
		fmt.Fprintf(w, " (default %s)", def)
	}
	fmt.Fprintln(w)
}
