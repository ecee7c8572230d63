package analyzer

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// A Rule is one pidlint check: its ID is what diagnostics, -disable and
// //pidlint:ignore name; its text is what -explain and docs/rules.md print.
// Each rule lives in a file of its own with the calls it checks; Rules
// lists them.
type Rule struct {
	ID      string
	Name    string
	Title   string
	Summary string // one line for the rule tables (README, doc.go)
	Text    string // why it is wrong, on which OS
	Bad     string // code the rule reports
	Good    string // what to write instead
	OS      string // the OSes on which the probe gives a wrong answer
	Fix     bool   // whether its findings can carry a suggested fix

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

// RawProbe is the diagnostic category of -strict findings: raw probes that
// are correct where they stand but bypass safeprobe.
const RawProbe = "raw-probe"

// Rules lists every rule, in ID order: the registry from which dispatch,
// -disable, -explain, docs/rules.md and the rule tables are derived.
//
// A new rule is a file holding its Rule and its checks, an entry here, and
// its testdata package under testdata/src with a line in analyzer_test.go
// that runs it (and in fixbuild_test.go's fixedPackages if it fixes);
// "go test ./internal/explain -update" then
// rewrites the lists generated from here.
var Rules = []Rule{
	killZeroRule,
	signalZeroRule,
	findProcessRule,
	procStatRule,
	shellProbeRule,
	wrapperRule,
	signalStaleRule,
	pidfileBlockRule,
}

// LookupRule returns the rule with the given ID (in any case) or name.
func LookupRule(idOrName string) (Rule, bool) {
	for _, r := range Rules {
		if strings.EqualFold(r.ID, idOrName) || r.Name == idOrName {
			return r, true
		}
	}
	return Rule{}, false
}

// ParseRules parses a comma-separated list of rule IDs or names, such as
// "PL001,shell-probe", into rule IDs. Empty elements are skipped; an
// unknown one is an error that names it and the rules there are.
func ParseRules(list string) ([]string, error) {
	var ids []string
	for f := range strings.SplitSeq(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		r, ok := LookupRule(f)
		if !ok {
			return nil, fmt.Errorf("unknown rule %q (rules: %s)", f, ruleNames())
		}
		ids = append(ids, r.ID)
	}
	return ids, nil
}

// ruleNames lists the rules as "PL001 kill-zero, PL002 signal-zero, …".
func ruleNames() string {
	var names []string
	for _, r := range Rules {
		names = append(names, r.ID+" "+r.Name)
	}
	return strings.Join(names, ", ")
}

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

// DocsURL is where docs/rules.md, the rules' documentation, is published.
const DocsURL = "https://github.com/pidlint/pidlint/blob/main/docs/rules.md"

// Anchor is the id of the rule's section in docs/rules.md.
func (r Rule) Anchor() string { return strings.ToLower(r.ID) }

// URL is the address of the rule's section in docs/rules.md, which its
// diagnostics carry.
func (r Rule) URL() string { return DocsURL + "#" + r.Anchor() }

// Explain is the text of -explain and of a rule's section in docs/rules.md.
func (r Rule) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n\n%s\n\nReported:\n\n%s\n\nInstead:\n\n%s\n",
		r.ID, r.Name, r.Title, r.Text, indent(r.Bad), indent(r.Good))
	return b.String()
}

func indent(code string) string {
	return "\t" + strings.ReplaceAll(code, "\n", "\n\t")
}
