package main

import (
	"fmt"
	"sort"
)

// window is how far (in lines) from a site a finding may stand and still
// count as the site's, for a site that lies in no top-level declaration.
const window = 3

// A Result is what one run (default or -strict) found for one site.
type Result struct {
	Site     *Site
	Found    bool      // a finding of the site's rule in its scope
	AtFix    bool      // a finding of the site's rule on the site's line
	Findings []Finding // those findings
}

// scopes resolves each site's scope: the top-level declaration holding its
// line and the declarations its scope column names. Two sites of the same
// rule may not share a declaration, or one finding would count twice.
func scopes(sites []*Site, decls *Decls) (map[*Site][]Span, error) {
	out := make(map[*Site][]Span)
	owner := make(map[string]*Site)
	for _, s := range sites {
		own, ok, err := decls.At(s.File, s.Line)
		if err != nil {
			return nil, fmt.Errorf("sites line %d: %v", s.TSVLine, err)
		}
		var spans []Span
		if ok {
			spans = append(spans, own)
		}
		for _, r := range s.Scope {
			sp, err := decls.Resolve(s.File, r)
			if err != nil {
				return nil, fmt.Errorf("sites line %d (%s): scope: %v", s.TSVLine, s, err)
			}
			spans = append(spans, sp)
		}
		for _, sp := range spans {
			key := fmt.Sprintf("%s %s:%d", s.Rule, sp.File, sp.Start)
			if other, dup := owner[key]; dup && other != s {
				return nil, fmt.Errorf("sites lines %d and %d: both %s sites claim %s (%s:%d)", other.TSVLine, s.TSVLine, s.Rule, sp.Name, sp.File, sp.Start)
			}
			owner[key] = s
		}
		out[s] = spans
	}
	return out, nil
}

// match pairs one module's findings with its sites. It returns a result
// per site and the PL007/PL008 findings that belong to no site.
func match(sites []*Site, spans map[*Site][]Span, findings []Finding) ([]Result, []Finding) {
	claimed := make([]bool, len(findings))
	var results []Result
	for _, s := range sites {
		r := Result{Site: s}
		for i, f := range findings {
			if f.Rule != s.Rule || !inScope(s, spans[s], f) {
				continue
			}
			claimed[i] = true
			r.Found = true
			r.Findings = append(r.Findings, f)
			if f.File == s.File && f.Line == s.Line {
				r.AtFix = true
			}
		}
		results = append(results, r)
	}
	var unmatched []Finding
	for i, f := range findings {
		if !claimed[i] && rules[f.Rule] {
			unmatched = append(unmatched, f)
		}
	}
	return results, unmatched
}

func inScope(s *Site, spans []Span, f Finding) bool {
	for _, sp := range spans {
		if sp.contains(f.File, f.Line) {
			return true
		}
	}
	if len(spans) == 0 && f.File == s.File {
		d := f.Line - s.Line
		return -window <= d && d <= window
	}
	return false
}

// Tally is one rule's confusion counts in one run.
type Tally struct {
	TP, FN, FP, TN int
	AtFix          int // true positives with a finding on the site's line
	Unlabelled     int // findings of the rule at no labelled site
}

func (t Tally) Precision() (float64, bool) {
	if t.TP+t.FP == 0 {
		return 0, false
	}
	return float64(t.TP) / float64(t.TP+t.FP), true
}

func (t Tally) Recall() (float64, bool) {
	if t.TP+t.FN == 0 {
		return 0, false
	}
	return float64(t.TP) / float64(t.TP+t.FN), true
}

// tally counts a run's results per rule; with strict, name-check sites
// are positives.
func tally(results []Result, unmatched []Finding, strict bool) map[string]*Tally {
	t := map[string]*Tally{"PL007": {}, "PL008": {}}
	for _, r := range results {
		c := t[r.Site.Rule]
		switch pos := r.Site.Positive(strict); {
		case pos && r.Found:
			c.TP++
			if r.AtFix {
				c.AtFix++
			}
		case pos:
			c.FN++
		case r.Found:
			c.FP++
		default:
			c.TN++
		}
	}
	for _, f := range unmatched {
		t[f.Rule].Unlabelled++
	}
	return t
}

func sortedRules(t map[string]*Tally) []string {
	var ids []string
	for id := range t {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
