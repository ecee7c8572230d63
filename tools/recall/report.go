package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// A Report gathers the modules' results.
type Report struct {
	Strict   bool
	Modules  []ModuleResult
	Failures []ModuleResult
}

func (r *Report) Add(m ModuleResult) {
	if m.Err != nil {
		r.Failures = append(r.Failures, m)
		return
	}
	r.Modules = append(r.Modules, m)
}

func (r *Report) results(strict bool) ([]Result, []Finding) {
	var results []Result
	var unmatched []Finding
	for _, m := range r.Modules {
		if strict {
			results = append(results, m.Strict...)
			unmatched = append(unmatched, m.UnmatchedStrict...)
		} else {
			results = append(results, m.Default...)
			unmatched = append(unmatched, m.Unmatched...)
		}
	}
	return results, unmatched
}

// counts is the corpus's size: sites per rule and label, and modules.
func (r *Report) counts() (map[string]map[string]int, int, int) {
	c := map[string]map[string]int{"PL007": {}, "PL008": {}}
	n := 0
	for _, m := range r.Modules {
		for _, s := range m.Sites {
			c[s.Rule][s.Label]++
			n++
		}
	}
	return c, n, len(r.Modules)
}

func ratio(v float64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f", v)
}

func (r *Report) runs() []bool {
	if r.Strict {
		return []bool{false, true}
	}
	return []bool{false}
}

func mode(strict bool) string {
	if strict {
		return "-strict"
	}
	return "default"
}

// Text prints the summary table, the sites that were missed or falsely
// reported, every unlabelled finding and every failure.
func (r *Report) Text(w io.Writer) {
	c, n, mods := r.counts()
	fmt.Fprintf(w, "\n%d sites in %d modules scored", n, mods)
	for _, rule := range []string{"PL007", "PL008"} {
		fmt.Fprintf(w, "; %s: %d bad, %d good, %d name-check", rule, c[rule]["bad"], c[rule]["good"], c[rule]["name-check"])
	}
	fmt.Fprintln(w)
	for _, strict := range r.runs() {
		results, unmatched := r.results(strict)
		t := tally(results, unmatched, strict)
		fmt.Fprintf(w, "\n%-8s %-5s %4s %4s %4s %4s %9s %6s %6s %10s\n", "run", "rule", "TP", "FN", "FP", "TN", "precision", "recall", "at-fix", "unlabelled")
		for _, rule := range sortedRules(t) {
			x := t[rule]
			p, pok := x.Precision()
			rc, rok := x.Recall()
			fmt.Fprintf(w, "%-8s %-5s %4d %4d %4d %4d %9s %6s %6d %10d\n", mode(strict), rule, x.TP, x.FN, x.FP, x.TN, ratio(p, pok), ratio(rc, rok), x.AtFix, x.Unlabelled)
		}
		for _, res := range results {
			pos := res.Site.Positive(strict)
			switch {
			case pos && !res.Found:
				fmt.Fprintf(w, "  missed (%s): %s  [%s] %s\n", mode(strict), res.Site, res.Site.Label, res.Site.Verdict)
			case !pos && res.Found:
				fmt.Fprintf(w, "  false alarm (%s): %s  [%s] %s\n", mode(strict), res.Site, res.Site.Label, res.Site.Verdict)
				for _, f := range res.Findings {
					fmt.Fprintf(w, "      %s\n", f)
				}
			}
		}
		for _, f := range unmatched {
			fmt.Fprintf(w, "  UNLABELLED (%s): %s: %s — label it in sites.tsv\n", mode(strict), moduleOf(r, f), f)
		}
	}
	for _, m := range r.Failures {
		fmt.Fprintf(w, "  FAILED: %s (%d sites not scored): %v\n", m.Module, len(m.Sites), m.Err)
	}
}

// moduleOf names the module a finding came from.
func moduleOf(r *Report, f Finding) string {
	for _, m := range r.Modules {
		for _, u := range append(append([]Finding(nil), m.Unmatched...), m.UnmatchedStrict...) {
			if u == f {
				return m.Module
			}
		}
	}
	return "?"
}

// Markdown is the report as docs/recall.md's generated part: the tables
// per rule, then every site with its label, whether each run found it and
// its verdict, then the unlabelled findings and failures.
func (r *Report) Markdown() string {
	var b strings.Builder
	c, n, mods := r.counts()
	fmt.Fprintf(&b, "%d sites in %d modules.\n\n", n, mods)
	fmt.Fprintf(&b, "| rule | bad | good | name-check |\n|---|---|---|---|\n")
	for _, rule := range []string{"PL007", "PL008"} {
		fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", rule, c[rule]["bad"], c[rule]["good"], c[rule]["name-check"])
	}
	fmt.Fprintf(&b, "\n| run | rule | TP | FN | FP | TN | precision | recall | found at the fix | unlabelled findings |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, strict := range r.runs() {
		results, unmatched := r.results(strict)
		t := tally(results, unmatched, strict)
		for _, rule := range sortedRules(t) {
			x := t[rule]
			p, pok := x.Precision()
			rc, rok := x.Recall()
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %s | %s | %d of %d | %d |\n", mode(strict), rule, x.TP, x.FN, x.FP, x.TN, ratio(p, pok), ratio(rc, rok), x.AtFix, x.TP, x.Unlabelled)
		}
	}
	fmt.Fprintf(&b, "\n| module | site | rule | label | found | at the fix |")
	if r.Strict {
		fmt.Fprintf(&b, " -strict |")
	}
	fmt.Fprintf(&b, " verdict |\n|---|---|---|---|---|---|")
	if r.Strict {
		fmt.Fprintf(&b, "---|")
	}
	fmt.Fprintf(&b, "---|\n")
	for _, m := range r.Modules {
		for i, res := range m.Default {
			fmt.Fprintf(&b, "| %s | %s:%d | %s | %s | %s | %s |", m.Module, res.Site.File, res.Site.Line, res.Site.Rule, res.Site.Label, yes(res.Found), yes(res.AtFix))
			if r.Strict {
				fmt.Fprintf(&b, " %s |", yes(m.Strict[i].Found))
			}
			fmt.Fprintf(&b, " %s |\n", escape(res.Site.Verdict))
		}
	}
	for _, strict := range r.runs() {
		_, unmatched := r.results(strict)
		if len(unmatched) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nFindings at no labelled site (%s run):\n\n", mode(strict))
		sort.Slice(unmatched, func(i, j int) bool { return unmatched[i].File < unmatched[j].File })
		for _, f := range unmatched {
			fmt.Fprintf(&b, "- %s %s:%d: %s\n", moduleOf(r, f), f.File, f.Line, escape(f.Message))
		}
	}
	for _, m := range r.Failures {
		fmt.Fprintf(&b, "\nNot scored: %s (%d sites): %s\n", m.Module, len(m.Sites), escape(m.Err.Error()))
	}
	return b.String()
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func escape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
