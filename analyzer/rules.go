package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/internal/rules"
)

// A Rule is one pidlint rule as users see it: its entry in pidlint's
// catalogue (ID, name, texts, examples, OSes, whether it fixes).
type Rule = rules.Rule

// Rules are the Go rules, in ID order: the catalogue's entries this pass
// checks, each with a checker (see checkers).
var Rules = rules.Of(rules.Go)

// A checker is what the pass runs for one rule of the catalogue. Each
// rule's checker lives in a file of its own with the calls it checks;
// checkers lists them.
type checker struct {
	rule string // the rule's ID in the catalogue

	// calls are the calls the rule checks; the first rule with a
	// callCheck for one of a call's roles checks it.
	calls []callCheck
	// ignoredFile, if set, checks a file that does not build on the host
	// (it has its name and source; runner.parseIgnored parses it) from its
	// syntax alone.
	ignoredFile func(r *runner, name string, src []byte, rule string)
	// pkg, if set, checks the whole package once, after the calls: for
	// rules that follow a value across functions and packages.
	pkg func(r *runner, rule string)
}

// A callCheck is one kind of call a rule looks at: calls with one of
// roles (see package calls), and the check that looks at each.
type callCheck struct {
	roles calls.Role
	check func(s *site)
}

// checkers are the rules' checkers, in Rules' order: dispatch goes by it.
//
// A new rule is its entry in the catalogue (internal/rules/golang.go), a
// file here holding its checker and its checks, an entry in this list,
// and its testdata package under testdata/src with a line in
// analyzer_test.go that runs it (and in fixbuild_test.go's fixedPackages
// if it fixes); "go test ./internal/explain -update" then rewrites the
// lists generated from the catalogue.
var checkers = []checker{
	killZeroRule,
	signalZeroRule,
	findProcessRule,
	procStatRule,
	shellProbeRule,
	wrapperRule,
	signalStaleRule,
	pidfileBlockRule,
}

// RawProbe is the diagnostic category of -strict findings: raw probes that
// are correct where they stand but bypass safeprobe.
const RawProbe = rules.RawProbe

// DocsURL is where docs/rules.md, the rules' documentation, is published.
const DocsURL = rules.DocsURL

// LookupRule returns the rule with the given ID (in any case) or name, of
// any language.
func LookupRule(idOrName string) (Rule, bool) { return rules.Lookup(idOrName) }

// ParseRules parses a comma-separated list of rule IDs or names, such as
// "PL001,shell-probe", into rule IDs. Empty elements are skipped; an
// unknown one is an error that names it and the rules there are. Rules
// of pidlint's other languages are known too (a shared config file may
// disable them), and this pass ignores them.
func ParseRules(list string) ([]string, error) { return rules.Parse(list) }

// RuleOf returns the rule a diagnostic of pidlint reports: the one its
// Category names or, for a -strict finding (category raw-probe), the one
// whose documentation its URL points at. Diagnostics about
// //pidlint:ignore directives belong to no rule.
func RuleOf(d analysis.Diagnostic) (Rule, bool) {
	for _, r := range Rules {
		if d.Category == r.ID || (d.Category == RawProbe && d.URL == r.URL()) {
			return r, true
		}
	}
	return Rule{}, false
}
