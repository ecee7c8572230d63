// Command pidlint reports unsafe process-liveness checks in Go code.
//
// Usage:
//
//	pidlint [-strict] [-fix] [-diff] [-json] [-safeprobe=path] [-disable=PL00N,…] packages
//	pidlint -format=sarif|github|text [-new-from-rev=REV] [-test=false] [-strict] … packages
//	pidlint -explain [-markdown] [PL00N…]
//	go vet -vettool=$(command -v pidlint) ./...
//	go fix -fixtool=$(command -v pidlint) ./...
//
// Without -format or -new-from-rev, pidlint is a standard analysis driver
// (singlechecker): text or -json output, -fix and -diff, and the protocol
// go vet and go fix use to run it. -format=sarif prints a SARIF 2.1.0 log
// for code scanning dashboards, -format=github GitHub Actions annotations,
// -format=text the plain text; -new-from-rev=REV reports only findings on
// lines added or changed since the git revision REV. -explain prints the
// rules' documentation; -explain -markdown prints docs/rules.md.
//
// Exit status: 0 when clean, 3 when it reports findings, 1 on errors.
package main

import (
	"fmt"
	"os"
	"slices"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/pidlint/pidlint/analyzer"
)

func main() {
	args := os.Args[1:]
	if len(args) >= 1 && (args[0] == "-explain" || args[0] == "--explain") {
		os.Exit(explain(args[1:]))
	}
	if rel, ok, sp, rest := takeVendorFlag(args); ok {
		path, err := runVendor("", rel, sp, os.Stderr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "pidlint: %v\n", err)
			os.Exit(exitError)
		}
		args = append([]string{"-safeprobe=" + path}, rest...)
		os.Args = append(os.Args[:1], args...) // singlechecker reads os.Args
	}
	if wantsDriver(args) {
		d := &driver{stdout: os.Stdout, stderr: os.Stderr}
		os.Exit(d.run(args))
	}
	if slices.ContainsFunc(args, isHelp) {
		fmt.Fprintf(os.Stderr, "pidlint: for SARIF or GitHub output, or findings since a git revision, see pidlint -format=text -help\n\n")
	}
	singlechecker.Main(analyzer.Analyzer)
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "--h"
}

// explain prints the documentation of the named rules, or of all; with
// -markdown first, all of it as docs/rules.md.
func explain(ids []string) int {
	if len(ids) == 1 && (ids[0] == "-markdown" || ids[0] == "--markdown") {
		if err := writeMarkdown(os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "pidlint: %v\n", err)
			return 1
		}
		return 0
	}
	if len(ids) == 0 {
		for _, r := range analyzer.Rules {
			fmt.Printf("%s\n", r.Explain())
		}
		return 0
	}
	status := 0
	for _, id := range ids {
		r, ok := analyzer.LookupRule(id)
		if !ok {
			fmt.Fprintf(os.Stderr, "pidlint: unknown rule %q (rules: PL001..PL%03d)\n", id, len(analyzer.Rules))
			status = 1
			continue
		}
		fmt.Printf("%s\n", r.Explain())
	}
	return status
}
