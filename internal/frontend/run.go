package frontend

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/rules"
	"github.com/pidlint/pidlint/internal/source"
)

// A Run is one run's front ends over its patterns.
type Run struct {
	Dir       string // the directory the run works in, absolute
	Root      string // the directory reports name files relative to (finding.Report.Root)
	Patterns  []string
	FrontEnds []FrontEnd // those the run selects, in rules.Languages' order
	Settings  Settings
	Source    *source.Cache
}

// Check runs the front ends that have something to check, at the same
// time, and merges what they found into one report. analyzed reports
// whether a front end checked a file. An error is one that stops the
// run; a pattern that names nothing, or a file no front end checks, is
// an error of the report, and the run goes on.
func (r *Run) Check() (rep *finding.Report, analyzed func(file string) bool, err error) {
	targets, errs := resolve(r.Dir, r.Patterns)
	var walked []*rules.Language
	for _, fe := range r.FrontEnds {
		if !fe.Language().Packages {
			walked = append(walked, fe.Language())
		}
	}
	var files map[*rules.Language][]string
	if len(walked) > 0 {
		var walkErrs []string
		files, walkErrs = find(targets, walked)
		errs = append(errs, walkErrs...)
	}
	errs = append(errs, r.unchecked(targets, files)...)

	results := make([]*Result, len(r.FrontEnds))
	runErrs := make([]error, len(r.FrontEnds))
	var wg sync.WaitGroup
	for i, fe := range r.FrontEnds {
		in := &Input{Dir: r.Dir, Settings: r.Settings, Source: r.Source}
		if fe.Language().Packages {
			in.Patterns = packagePatterns(fe.Language(), targets)
		} else if in.Files = files[fe.Language()]; len(in.Files) == 0 {
			results[i] = &Result{} // nothing to check: not started
			continue
		}
		wg.Go(func() { results[i], runErrs[i] = fe.Check(in) })
	}
	wg.Wait()
	for _, err := range runErrs {
		if err != nil {
			return nil, nil, err
		}
	}
	return r.merge(results, errs), analyzedBy(results), nil
}

// packagePatterns are the patterns of a language that resolves them
// itself, in their order: the directories, its own files and the patterns
// only it reads.
func packagePatterns(l *rules.Language, targets []target) []string {
	var pats []string
	for _, t := range targets {
		if t.dir || t.packagesOnly() || l.HasExtension(t.path) {
			pats = append(pats, t.pattern)
		}
	}
	return pats
}

// unchecked are the errors about file patterns no front end of the run
// checks.
func (r *Run) unchecked(targets []target, files map[*rules.Language][]string) []string {
	var errs []string
	for _, t := range targets {
		if t.dir || t.packagesOnly() {
			continue
		}
		taken := slices.ContainsFunc(r.FrontEnds, func(fe FrontEnd) bool {
			l := fe.Language()
			if l.Packages {
				return l.HasExtension(t.path)
			}
			_, found := slices.BinarySearch(files[l], t.path)
			return found
		})
		if !taken {
			errs = append(errs, fmt.Sprintf("pattern %s: not a file of a language this run checks (%s)", t.pattern, r.languageNames()))
		}
	}
	return errs
}

func (r *Run) languageNames() string {
	var langs []*rules.Language
	for _, fe := range r.FrontEnds {
		langs = append(langs, fe.Language())
	}
	return rules.LanguageNames(langs)
}

// merge joins the results into one report: the front ends' errors and
// notes after the run's own, the findings sorted. When no front end found
// anything to check, a note says so.
func (r *Run) merge(results []*Result, errs []string) *finding.Report {
	rep := &finding.Report{Dir: r.Dir, Root: r.Root, Errors: errs}
	checked := false
	for _, res := range results {
		if res == nil {
			continue // a front end that returned neither a result nor an error
		}
		rep.Findings = append(rep.Findings, res.Findings...)
		rep.Errors = append(rep.Errors, res.Errors...)
		rep.Notes = append(rep.Notes, res.Notes...)
		checked = checked || res.Checked
	}
	slices.SortStableFunc(rep.Findings, finding.Compare)
	if !checked && len(rep.Errors) == 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("nothing to check: no %s files in %s", r.languageTitles(), strings.Join(r.Patterns, " ")))
	}
	return rep
}

// languageTitles names the run's languages as a message does: "Go,
// Python or shell".
func (r *Run) languageTitles() string {
	var titles []string
	for _, fe := range r.FrontEnds {
		titles = append(titles, fe.Language().Title)
	}
	if len(titles) <= 1 {
		return strings.Join(titles, "")
	}
	return strings.Join(titles[:len(titles)-1], ", ") + " or " + titles[len(titles)-1]
}

// analyzedBy reports whether one of the results' front ends checked a
// file.
func analyzedBy(results []*Result) func(file string) bool {
	return func(file string) bool {
		file = filepath.Clean(file)
		return slices.ContainsFunc(results, func(res *Result) bool { return res != nil && res.Analyzed != nil && res.Analyzed(file) })
	}
}
