package rules

import (
	"fmt"
	"slices"
	"strings"
)

// all is every rule, each language's in ID order. A new language's rules
// are a list of their own, joined here.
var all = slices.Concat(goRules, pythonRules, shellRules)

// All returns every rule of every language.
func All() []Rule { return slices.Clone(all) }

// Of returns the rules of lang, in ID order.
func Of(lang *Language) []Rule {
	var rs []Rule
	for _, r := range all {
		if r.Language == lang {
			rs = append(rs, r)
		}
	}
	return rs
}

// Lookup returns the rule with the given ID (in any case) or name.
func Lookup(idOrName string) (Rule, bool) {
	for _, r := range all {
		if strings.EqualFold(r.ID, idOrName) || r.Name == idOrName {
			return r, true
		}
	}
	return Rule{}, false
}

// Parse parses a comma-separated list of rule IDs or names of any
// language, such as "PL001,shell-probe", into rule IDs. Empty elements
// are skipped; an unknown one is an error that names it and the rules
// there are.
func Parse(list string) ([]string, error) {
	var ids []string
	for f := range strings.SplitSeq(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		r, ok := Lookup(f)
		if !ok {
			return nil, fmt.Errorf("unknown rule %q (rules: %s)", f, names(all))
		}
		ids = append(ids, r.ID)
	}
	return ids, nil
}

// names lists rules as "PL001 kill-zero, PL002 signal-zero, …".
func names(rs []Rule) string {
	var ns []string
	for _, r := range rs {
		ns = append(ns, r.ID+" "+r.Name)
	}
	return strings.Join(ns, ", ")
}

// Range is "PL001..PL008": the first and last IDs of rs, as the help
// screen and .golangci.yml's description name them; "" for none.
func Range(rs []Rule) string {
	if len(rs) == 0 {
		return ""
	}
	return rs[0].ID + ".." + rs[len(rs)-1].ID
}
