// Package rules is pidlint's catalogue: every rule of every language, with
// what users read of it (ID, name, texts, examples, OSes, fix), the
// languages and their files, and the ignore directives that name rules.
// Every stage reads rules from here (the front ends, -disable, -explain,
// docs/rules.md, SARIF's rule entries), so none imports a front end for
// them.
//
// A language's rules are a list in a file of their own (golang.go); All
// joins them. A front end reports a rule by its ID; a rule's checks live
// in its front end (for Go, package analyzer).
package rules

import (
	"fmt"
	"strings"
)

// A Rule is one pidlint check as users see it: its ID is what findings,
// -disable and ignore directives name; its texts are what -explain and
// docs/rules.md print.
type Rule struct {
	ID       string
	Name     string
	Language *Language
	Category Category
	Title    string
	Summary  string // one line for the rule tables (README, doc.go)
	Text     string // why it is wrong, on which OS
	Bad      string // code the rule reports
	Good     string // what to write instead
	OS       string // the OSes on which the code gives a wrong answer
	Fix      bool   // whether its findings can carry a suggested fix
	// StrictOnly: the rule reports only with -strict. (A rule on by
	// default may also report more with -strict, with the category
	// RawProbe.)
	StrictOnly bool
}

// A Category is the kind of mistake a rule reports, the same in every
// language (SARIF tags rules with it). It is not a finding's diagnostic
// category, which is its rule's ID, RawProbe or BadIgnore.
type Category string

// The categories.
const (
	// Probe: deciding from a PID whether a process is alive.
	Probe Category = "liveness-probe"
	// Signal: signalling a PID whose process may be long gone.
	Signal Category = "unverified-signal"
	// PIDFile: a PID file as a single-instance guard that a crash leaves
	// blocking every start.
	PIDFile Category = "pidfile-guard"
)

// RawProbe is the diagnostic category of -strict findings: raw probes that
// are correct where they stand but bypass safeprobe.
const RawProbe = "raw-probe"

// BadIgnore is the diagnostic category of an ignore directive that names
// no rule, an unknown rule or no reason. It belongs to no rule, and no
// directive suppresses it.
const BadIgnore = "bad-ignore"

// DocsURL is where docs/rules.md, the rules' documentation, is published.
const DocsURL = "https://github.com/pidlint/pidlint/blob/main/docs/rules.md"

// Anchor is the id of the rule's section in docs/rules.md.
func (r Rule) Anchor() string { return strings.ToLower(r.ID) }

// URL is the address of the rule's section in docs/rules.md, which its
// findings carry.
func (r Rule) URL() string { return DocsURL + "#" + r.Anchor() }

// Explain is the text of -explain and of a rule's section in docs/rules.md.
func (r Rule) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n\n", r.ID, r.Name, r.Title)
	if r.StrictOnly {
		fmt.Fprintf(&b, "Reported only with -strict.\n\n")
	}
	fmt.Fprintf(&b, "%s\n\nReported:\n\n%s\n\nInstead:\n\n%s\n", r.Text, indent(r.Bad), indent(r.Good))
	return b.String()
}

func indent(code string) string {
	return "\t" + strings.ReplaceAll(code, "\n", "\n\t")
}
