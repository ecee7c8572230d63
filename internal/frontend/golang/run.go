package golang

// The builds of a plan, analyzed into one result: the first GOOS over
// every package, the others over the packages that differ for them, at
// the same time. A build runs by the go vet route (go vet
// -vettool=pidlint, which caches each package's result) or, with an empty
// build cache, in this process; both yield findings, made here once with
// their positions resolved in the user's files.

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/pidlint/pidlint/analyzer"
	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/frontend/golang/plan"
	"github.com/pidlint/pidlint/internal/gocmd"
	"github.com/pidlint/pidlint/internal/source"
)

// config is how a run analyzes.
type config struct {
	Go           *gocmd.Runner
	Tool         string   // the vet tool go vet runs: this executable
	AnalyzerArgs []string // the analyzer's flags as set, "-name=value"
	Tests        bool     // also analyze test files (in process; go vet always does)
	Source       *source.Cache
	// GOROOT is what the analyzer reads of GOROOT, shared by the builds
	// analyzed in this process; nil: each package reads its own.
	GOROOT *analyzer.Cache
	dir    string // the plan's working directory
}

type runner struct {
	cfg   config
	cache *buildCache
}

// A build is the result of one GOOS build.
type build struct {
	goos     string
	findings []finding.Finding
	// failed holds, per package, why it could not be analyzed (its type
	// errors); general holds errors that name no package.
	failed  map[string]string
	general []string
	notes   []string // fixes that could not be placed
}

func newBuild(goos string) *build { return &build{goos: goos, failed: make(map[string]string)} }

func (b *build) fail(pkg, msg string) {
	if b.failed[pkg] == "" {
		b.failed[pkg] = msg
	} else {
		b.failed[pkg] += "\n" + msg
	}
}

// analyze analyzes the builds of p and returns their merged result.
func analyze(cfg config, p *plan.Plan) (*frontend.Result, error) {
	cfg.dir = p.Dir
	r := &runner{cfg: cfg, cache: newBuildCache(cfg, p)}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		builds []*build
		errs   []error
	)
	for _, goos := range p.GOOS {
		wg.Go(func() {
			b, err := r.build(p, goos)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			} else if b != nil {
				builds = append(builds, b)
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return nil, errs[0]
	}
	slices.SortFunc(builds, func(x, y *build) int { return slices.Index(p.GOOS, x.goos) - slices.Index(p.GOOS, y.goos) })
	return report(builds, p, cfg.Go.Verbose), nil
}

// build runs the build for goos, by the route the plan calls for; nil when
// it has nothing to analyze. A build beyond the first is taken from the
// cache when nothing it depends on changed.
func (r *runner) build(p *plan.Plan, goos string) (*build, error) {
	cached := goos != p.GOOS[0] && !p.Cold
	if cached {
		if b, ok := r.cache.get(goos); ok {
			return b, nil
		}
	}
	pb, err := p.Build(goos)
	if err != nil {
		return nil, err
	}
	var b *build
	switch {
	case len(pb.Patterns) == 0:
		b = newBuild(goos)
	case p.Cold:
		return r.cfg.load(pb)
	default:
		if b, err = r.cfg.vet(pb); err != nil {
			return nil, err
		}
		b.findings = namedOnly(p, b.findings)
		if goos == p.Host {
			// Another GOOS's failures are mostly code that does
			// not build there (cgo-only code), said in a note.
			r.fromSource(b)
		}
	}
	if cached {
		r.cache.put(goos, b)
	}
	return b, nil
}

// namedOnly drops the findings in packages the patterns do not name: the
// go command may replay a package's own cached run when it is only a
// dependency (internal/vettool/reporting.go).
func namedOnly(p *plan.Plan, fs []finding.Finding) []finding.Finding {
	return slices.DeleteFunc(fs, func(f finding.Finding) bool { return !p.Analyzed(filepath.Dir(f.Pos.File)) })
}

// fromSource analyzes in process, from source, the packages the go vet
// route could not type-check: go vet type-checks a package against the
// export data of its imports, which for some valid code x/tools writes
// wrong (an interface's unexported method, through a defined type of
// another package). A package that type-checks from source loses its
// failure, and a note says how it was analyzed.
func (r *runner) fromSource(b *build) {
	if len(b.failed) == 0 {
		return
	}
	var paths []string
	for id := range b.failed {
		if p := importPath(id); !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	alt, err := r.cfg.load(plan.Build{GOOS: b.goos, Patterns: paths, Dirs: map[string]bool{}})
	if err != nil {
		return
	}
	for id := range b.failed {
		p := importPath(id)
		if _, failed := alt.failed[p]; !failed {
			delete(b.failed, id)
			b.notes = append(b.notes, fmt.Sprintf("%s: go vet could not type-check it from its imports' export data; analyzed from source instead", p))
		}
	}
	b.findings = append(b.findings, alt.findings...)
	b.notes = append(b.notes, alt.notes...)
}

// importPath is the import path of go vet's package ID: "p", "p [p.test]",
// an external test package "p_test [p.test]", or "[p]" (go vet's heading
// of a test variant's errors).
func importPath(id string) string {
	id = strings.TrimPrefix(id, "[")
	id, _, _ = strings.Cut(id, " ")
	return strings.TrimSuffix(strings.TrimSuffix(id, "]"), "_test")
}

// report merges the builds' findings into one result. The host's build's
// failures are errors; another GOOS's are notes, as a package that does
// not build for a GOOS (cgo-only code, or code for Unix only) is skipped
// for it; verbose says why.
func report(builds []*build, p *plan.Plan, verbose bool) *frontend.Result {
	rep := &frontend.Result{Checked: true}
	var all []finding.Finding
	for _, b := range builds {
		rep.Notes = append(rep.Notes, b.notes...)
		if b.goos == p.Host {
			// The go command's own errors in its order (a line may go on
			// over several); the packages' in the packages' order.
			for _, msg := range b.general {
				if !slices.Contains(rep.Errors, msg) {
					rep.Errors = append(rep.Errors, msg)
				}
			}
			for _, pkg := range slices.Sorted(maps.Keys(b.failed)) {
				rep.Errors = append(rep.Errors, fmt.Sprintf("%s: %s", importPath(pkg), b.failed[pkg]))
			}
		} else {
			for _, msg := range b.general {
				rep.Notes = append(rep.Notes, fmt.Sprintf("GOOS=%s: %s", b.goos, msg))
			}
			for pkg, msg := range b.failed {
				note := fmt.Sprintf("%s does not build for %s: skipped", importPath(pkg), b.goos)
				if verbose {
					first, _, _ := strings.Cut(msg, "\n")
					note += " (" + first + ")"
				}
				rep.Notes = append(rep.Notes, note)
			}
		}
		for _, f := range b.findings {
			if !fallbackCovered(f, b.goos, p.GOOS) {
				all = append(all, f)
			}
		}
	}
	rep.Findings = finding.Merge(all)
	rep.Errors = slices.Compact(rep.Errors) // a package and its test variant
	slices.Sort(rep.Notes)
	rep.Notes = slices.Compact(rep.Notes)
	return rep
}

// fallbackCovered reports whether f comes from the analyzer's syntax-only
// look at a file its build ignores (the file does not build for goos)
// while another of the builds analyzes that file with full types.
func fallbackCovered(f finding.Finding, goos string, builds []string) bool {
	dir, name := filepath.Dir(f.Pos.File), filepath.Base(f.Pos.File)
	if plan.BuildsFor(goos, dir, name) {
		return false
	}
	return slices.ContainsFunc(builds, func(g string) bool { return g != goos && plan.BuildsFor(g, dir, name) })
}
