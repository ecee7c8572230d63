// Command pidlint reports unsafe process-liveness checks in Go code.
//
// Usage:
//
//	pidlint [-goos=linux,darwin,windows,freebsd|host] [-strict] [-safeprobe=path] [-disable=PL00N,…] [-test=false] packages
//	pidlint [-json | -fix | -diff | -format=sarif|github|text] [-new-from-rev=REV] … packages
//	pidlint [-baseline=FILE | -write-baseline=FILE] [-vendor-safeprobe=DIR] … packages
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
// it cannot run. pidlint -help prints every flag, grouped.
package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/pidlint/pidlint/analyzer"
)

func main() {
	args := os.Args[1:]
	if len(args) >= 1 && (args[0] == "-explain" || args[0] == "--explain") {
		os.Exit(explain(args[1:]))
	}
	if isVetToolCall(args) {
		if writeTypesOnlyVetx(args[len(args)-1]) {
			os.Exit(0)
		}
		// singlechecker answers go vet's handshake and runs unitchecker
		// on the vet.cfg.
		singlechecker.Main(analyzer.Analyzer)
	}
	d := &driver{stdout: os.Stdout, stderr: os.Stderr}
	os.Exit(d.run(args))
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
	rules := analyzer.Rules
	if len(ids) > 0 {
		parsed, err := analyzer.ParseRules(strings.Join(ids, ","))
		if err != nil {
			fmt.Fprintf(os.Stderr, "pidlint: -explain: %v\n", err)
			return 1
		}
		rules = nil
		for _, id := range parsed {
			r, _ := analyzer.LookupRule(id)
			rules = append(rules, r)
		}
	}
	for _, r := range rules {
		fmt.Printf("%s\n", r.Explain())
	}
	return 0
}
