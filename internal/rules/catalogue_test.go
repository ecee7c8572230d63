package rules

import (
	"slices"
	"strings"
	"testing"
)

// TestCatalogue checks what every stage takes for granted of the rules:
// IDs and names unique across languages (-disable and directives take
// either), each rule complete, each language's rules in ID order.
func TestCatalogue(t *testing.T) {
	seen := map[string]string{}
	for _, r := range all {
		for _, key := range []string{strings.ToLower(r.ID), r.Name} {
			if other, dup := seen[key]; dup {
				t.Errorf("%s: %q is also %s's", r.ID, key, other)
			}
			seen[key] = r.ID
		}
		if r.Language == nil || !slices.Contains(Languages, r.Language) {
			t.Errorf("%s: language %v is not one of Languages", r.ID, r.Language)
		}
		switch r.Category {
		case Probe, Signal, PIDFile:
		default:
			t.Errorf("%s: unknown category %q", r.ID, r.Category)
		}
		for field, v := range map[string]string{"Name": r.Name, "Title": r.Title, "Summary": r.Summary, "Text": r.Text, "Bad": r.Bad, "Good": r.Good, "OS": r.OS} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: no %s", r.ID, field)
			}
		}
		if r.Name != strings.ToLower(r.Name) || strings.ContainsAny(r.Name, " ,") {
			t.Errorf("%s: name %q: want lower-case words joined by hyphens", r.ID, r.Name)
		}
	}
	for _, l := range Languages {
		rs := Of(l)
		if !slices.IsSortedFunc(rs, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) }) {
			t.Errorf("%s rules not in ID order", l.Name)
		}
	}
	if len(Of(Go)) == 0 {
		t.Error("no Go rules")
	}
}

// TestParse checks rule lists: IDs in any case and names, empty elements
// skipped, an unknown rule an error listing the rules.
func TestParse(t *testing.T) {
	ids, err := Parse(" PL001, shell-probe,,pl004 ")
	if err != nil || strings.Join(ids, ",") != "PL001,PL005,PL004" {
		t.Errorf("Parse = %q, %v; want PL001,PL005,PL004", ids, err)
	}
	if _, err := Parse("PL001,kill-zer0"); err == nil || !strings.Contains(err.Error(), `unknown rule "kill-zer0"`) || !strings.Contains(err.Error(), "PL006 wrapper") {
		t.Errorf("Parse(kill-zer0) error = %v, want one naming it and listing the rules", err)
	}
	if got := Range(Of(Go)); got != "PL001..PL008" {
		t.Errorf("Range(Go) = %q", got)
	}
}

// TestExplainStrictOnly checks that a rule reported only with -strict says
// so in its -explain text.
func TestExplainStrictOnly(t *testing.T) {
	r, _ := Lookup("PL001")
	if strings.Contains(r.Explain(), "-strict") {
		t.Errorf("PL001 is on by default, but its text says -strict:\n%s", r.Explain())
	}
	r.StrictOnly = true
	if !strings.Contains(r.Explain(), "Reported only with -strict.") {
		t.Errorf("a -strict rule's text does not say so:\n%s", r.Explain())
	}
}
