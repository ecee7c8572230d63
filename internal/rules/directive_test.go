package rules

import (
	"strings"
	"testing"
)

// TestParseDirective checks the directives in both comment syntaxes: the
// rules they name, their reasons, and what is no directive.
func TestParseDirective(t *testing.T) {
	for _, tc := range []struct {
		lang    *Language
		comment string
		ok      bool
		file    bool
		rules   string
		reason  string
	}{
		{Go, "//pidlint:ignore PL001,signal-zero child we started", true, false, "PL001,PL002", "child we started"},
		{Go, "//pidlint:file-ignore pl004 no procfs here // a later comment", true, true, "PL004", "no procfs here"},
		{Go, "// pidlint:ignore PL001 spaced", false, false, "", ""},
		{Go, "//pidlint:ignored PL001 x", false, false, "", ""},
		{Go, "# pidlint:ignore PL001 x", false, false, "", ""},
		{Python, "# pidlint:ignore PL001 x", true, false, "", "x"}, // a Go rule: unknown in Python
		{Python, "#pidlint:file-ignore PL001 x", true, true, "", "x"},
		{Python, "# pidlint:ignore PL001 see issue #12  # noqa: E501", true, false, "", "see issue #12"},
		{Shell, "#\tpidlint:ignore", true, false, "", ""},
		{Shell, "# pidlint:ignoreX", false, false, "", ""},
		{Shell, "//pidlint:ignore PL001 x", false, false, "", ""},
	} {
		d, ok := ParseDirective(tc.lang, tc.comment, 7)
		if ok != tc.ok {
			t.Errorf("%s %q: directive %v, want %v", tc.lang.Name, tc.comment, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if d.File != tc.file || strings.Join(d.Rules, ",") != tc.rules || d.Reason != tc.reason || d.Line != 7 {
			t.Errorf("%s %q: file %v, rules %q, reason %q, line %d", tc.lang.Name, tc.comment, d.File, d.Rules, d.Reason, d.Line)
		}
	}
}

// TestDirectiveProblems checks the reports about bad directives, in the
// syntax of the file's language.
func TestDirectiveProblems(t *testing.T) {
	for _, tc := range []struct {
		lang    *Language
		comment string
		want    string
	}{
		{Go, "//pidlint:ignore", "malformed pidlint:ignore: want //pidlint:ignore PL00N[,rule-name] reason"},
		{Go, "//pidlint:file-ignore kil-zero,PL001 typo", `pidlint:file-ignore names unknown rule "kil-zero": want a rule ID (PL001 to PL008) or name, as pidlint -explain lists them`},
		{Go, "//pidlint:ignore PL001", "pidlint:ignore PL001 needs a reason after the rule"},
		{Python, "# pidlint:ignore", "malformed pidlint:ignore: want # pidlint:ignore PY00N[,rule-name] reason"},
		{Python, "# pidlint:ignore PY001,py-proc-exists posix only", ""},
		{Shell, "# pidlint:ignore kill-zero,nope why", `pidlint:ignore names unknown rule "nope" and a rule of another language, "kill-zero" (a Go rule): want a rule ID (SH001 to SH003) or name, as pidlint -explain lists them`},
		{Go, "//pidlint:ignore PL001 ok", ""},
	} {
		d, ok := ParseDirective(tc.lang, tc.comment, 1)
		if !ok {
			t.Fatalf("%q: not a directive", tc.comment)
		}
		if got := d.Problem(); got != tc.want {
			t.Errorf("%s %q: problem\n%q, want\n%q", tc.lang.Name, tc.comment, got, tc.want)
		}
	}
}

// TestSuppress checks which findings a directive covers: its line and the
// next, or the whole file; a bad directive none. Each directive that
// covers a finding is marked used; the others report themselves.
func TestSuppress(t *testing.T) {
	line, _ := ParseDirective(Python, "# pidlint:ignore PL001 x", 10)
	file, _ := ParseDirective(Go, "//pidlint:file-ignore PL004 no procfs", 1)
	bad, _ := ParseDirective(Go, "//pidlint:ignore PL001", 20)
	goLine, _ := ParseDirective(Go, "//pidlint:ignore kill-zero child", 30)
	ds := []*Directive{line, file, bad, goLine}
	for _, tc := range []struct {
		rule string
		line int
		want bool
	}{
		{"PL004", 99, true},  // the file's
		{"PL001", 21, false}, // the bad directive's next line
		{"PL001", 30, true},  // goLine's own line
		{"PL001", 32, false}, // two lines below goLine
		{"PL002", 31, false}, // another rule
		{"PL001", 11, false}, // line names a Go rule in Python: no rule of its language
	} {
		if got := Suppress(ds, tc.rule, tc.line); got != tc.want {
			t.Errorf("Suppress(%s, line %d) = %v, want %v", tc.rule, tc.line, got, tc.want)
		}
	}
	if !file.Used || !goLine.Used || bad.Used || line.Used {
		t.Errorf("used: file %v, goLine %v, bad %v, line %v", file.Used, goLine.Used, bad.Used, line.Used)
	}
	if got := line.Unused(); got != "this pidlint:ignore PL001 matched nothing" {
		t.Errorf("Unused() = %q", got)
	}
}
