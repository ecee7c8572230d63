package rules

import (
	"slices"
	"strings"
	"unicode"
)

// Ignore directives are comments that suppress findings, as staticcheck's
// //lint:ignore and //lint:file-ignore do, written in the comment syntax
// of the file's language:
//
//	//pidlint:ignore PL001[,signal-zero] reason       on its line and the next
//	//pidlint:file-ignore PL002[,kill-zero] reason    in its whole file
//	# pidlint:ignore ID[,name] reason                 where comments start with #
//
// Rules are named by ID (in any case) or name, rules of the file's
// language. A directive that names no rule, an unknown rule or no reason
// suppresses nothing and is reported. Every front end parses its files'
// comments with ParseDirective and applies them with Suppress, so a
// directive means the same in every language.

// The directives' words, after the comment marker.
const (
	IgnoreWord     = "pidlint:ignore"
	FileIgnoreWord = "pidlint:file-ignore"
)

// A Directive is one ignore directive of a file.
type Directive struct {
	Line    int      // the comment's line
	File    bool     // pidlint:file-ignore
	Names   []string // the rules as written
	Rules   []string // the IDs of those that name a rule of the language
	Unknown []string // the names that do not
	Reason  string
	Used    bool // set by Suppress
	lang    *Language
}

// DirectiveRule describes the findings about ignore directives, which
// belong to no rule: in docs/rules.md, and as SARIF's rule for them.
var DirectiveRule = struct{ ID, Title, Anchor, Text string }{
	ID:     "ignore-directive",
	Title:  "a //pidlint:ignore or //pidlint:file-ignore directive that is malformed or suppresses nothing",
	Anchor: "suppressing-findings",
	Text: `A finding is suppressed by a "//pidlint:ignore PL00N reason" comment on its
line or on the line above, and every finding of a rule in a file by a
"//pidlint:file-ignore PL00N reason" comment anywhere in that file (as
staticcheck's //lint:ignore and //lint:file-ignore). In a language whose
comments start with "#" the directives are "# pidlint:ignore ID reason" and
"# pidlint:file-ignore ID reason". Rules are named by ID or name
("//pidlint:ignore signal-zero reason"), several separated by commas, and
the reason is required; a directive names rules of its file's language.

A directive that names no rule, an unknown rule or no reason suppresses
nothing and is itself reported, with the category bad-ignore, once however
many GOOS builds see it; no directive suppresses that report. A
//pidlint:ignore that suppresses nothing is reported too, so that stale
directives do not pile up (not in a file that does not build on the host,
whose rules only that OS's build runs in full); a //pidlint:file-ignore that
suppresses nothing is not, as staticcheck's is not. -disable=PL00N,… turns
rules off for a whole run.`,
}

// ParseDirective parses comment, the text of one comment of a file of lang
// with its marker ("//pidlint:ignore PL001 reason", "# pidlint:ignore …"),
// if it is a directive; line is the comment's line.
func ParseDirective(lang *Language, comment string, line int) (*Directive, bool) {
	rest, ok := strings.CutPrefix(comment, lang.Comment)
	if !ok {
		return nil, false
	}
	if lang.Comment == "#" {
		rest = strings.TrimLeft(rest, " \t") // "# pidlint:ignore", "#pidlint:ignore"
	}
	d := &Directive{Line: line, lang: lang}
	if rest, ok = strings.CutPrefix(rest, IgnoreWord); !ok {
		if rest, ok = strings.CutPrefix(rest, FileIgnoreWord); !ok {
			return nil, false
		}
		d.File = true
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil, false // pidlint:ignored, another word
	}
	fields := strings.Fields(cutNestedComment(lang, rest))
	if len(fields) == 0 {
		return d, true
	}
	for name := range strings.SplitSeq(fields[0], ",") {
		if name == "" {
			continue
		}
		d.Names = append(d.Names, name)
		if r, ok := Lookup(name); ok && r.Language == lang {
			d.Rules = append(d.Rules, r.ID)
		} else {
			d.Unknown = append(d.Unknown, name)
		}
	}
	d.Reason = strings.Join(fields[1:], " ")
	return d, true
}

// cutNestedComment cuts text at another comment after the directive's:
// "//" in Go, a "#" between spaces ("… reason  # noqa") where comments
// start with "#"; the reason may hold "#12".
func cutNestedComment(lang *Language, text string) string {
	if lang.Comment != "#" {
		text, _, _ = strings.Cut(text, lang.Comment)
		return text
	}
	for i := 1; i < len(text); i++ {
		if text[i] == '#' && unicode.IsSpace(rune(text[i-1])) && (i+1 == len(text) || unicode.IsSpace(rune(text[i+1]))) {
			return text[:i]
		}
	}
	return text
}

// Kind is the directive's name, as messages print it.
func (d *Directive) Kind() string {
	if d.File {
		return FileIgnoreWord
	}
	return IgnoreWord
}

// Problem says what is wrong with a directive that suppresses nothing
// whatever the code, or returns "". Reported, its category is BadIgnore.
func (d *Directive) Problem() string {
	rs := Of(d.lang)
	switch {
	case len(d.Names) == 0:
		return "malformed " + d.Kind() + ": want " + d.written() + " " + exampleID(rs) + "[,rule-name] reason"
	case len(d.Unknown) > 0:
		want := "want a rule ID or name"
		if len(rs) > 0 {
			want = "want a rule ID (" + rs[0].ID + " to " + rs[len(rs)-1].ID + ") or name"
		}
		return d.Kind() + " names " + d.unknown() + ": " + want + ", as pidlint -explain lists them"
	case d.Reason == "":
		return d.Kind() + " " + strings.Join(d.Names, ",") + " needs a reason after the rule"
	}
	return ""
}

// written is the directive as it starts in its language: //pidlint:ignore,
// # pidlint:ignore.
func (d *Directive) written() string {
	if d.lang.Comment == "#" {
		return "# " + d.Kind()
	}
	return d.lang.Comment + d.Kind()
}

// unknown names the names that name no rule of the language: unknown
// rules, or rules of another language.
func (d *Directive) unknown() string {
	var quoted, foreign []string
	for _, n := range d.Unknown {
		if r, ok := Lookup(n); ok {
			foreign = append(foreign, `"`+n+`" (a `+r.Language.Title+` rule)`)
		} else {
			quoted = append(quoted, `"`+n+`"`)
		}
	}
	switch {
	case len(foreign) == 0:
		return "unknown rule " + strings.Join(quoted, ", ")
	case len(quoted) == 0:
		return "a rule of another language, " + strings.Join(foreign, ", ")
	}
	return "unknown rule " + strings.Join(quoted, ", ") + " and a rule of another language, " + strings.Join(foreign, ", ")
}

// exampleID is an ID pattern for rs in messages: PL00N for PL001.
func exampleID(rs []Rule) string {
	if len(rs) == 0 {
		return "ID"
	}
	return strings.TrimRight(rs[0].ID, "0123456789") + "00N"
}

// Covers reports whether d suppresses a finding of rule on line.
func (d *Directive) Covers(rule string, line int) bool {
	return d.Problem() == "" && slices.Contains(d.Rules, rule) && (d.File || d.Line == line || d.Line == line-1)
}

// Unused is the report about a line's directive that suppressed nothing.
// (A file-ignore that suppresses nothing is not reported, as staticcheck's
// is not: it may stand for findings of a build this one is not.)
func (d *Directive) Unused() string {
	return "this " + d.Kind() + " " + strings.Join(d.Names, ",") + " matched nothing"
}

// Suppress reports whether a directive of ds suppresses a finding of rule
// on line, and marks every one that does as used.
func Suppress(ds []*Directive, rule string, line int) bool {
	found := false
	for _, d := range ds {
		if d.Covers(rule, line) {
			d.Used = true
			found = true
		}
	}
	return found
}
