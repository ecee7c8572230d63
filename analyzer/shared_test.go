package analyzer_test

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pidlint/pidlint/analyzer"
)

// Loading a package for analysistest type-checks it and everything it
// imports, the standard library included, from source: most of this
// package's test time. The tests that run analyzer.Analyzer on this host
// share two runs, one with suggested fixes checked against their goldens
// and one without, each over every package those tests name, so the
// standard library is loaded once for them all. A test gets the messages
// about its own packages' files, and any that name no file.
var (
	hostFixes = &sharedRun{fixes: true, pkgs: []string{
		"killzero", "killzeroimports", "signalzero", "findprocess", "procstat",
		"wrapper/procutil", "wrapper/daemon", "signalstalefix", "signalnil",
		"ownchild", "pidonly",
	}}
	hostPlain = &sharedRun{pkgs: []string{
		"shellprobe", "ignore", "fileignore", "negatives",
		"signalstale", "signalstale/pidfile", "signalstale/ctl", "signalstalecmd",
		"signalstalewide", "errtext", "findprocessleak", "pidfileblock",
		"pidfileblock/monitor", "unixonly", "unixonlysys", "unixtestonly",
		"procstatunix", "killzerotext", "findprocessprobed",
		// TestRuleFix's results only: their tests load them for windows.
		"signalwindows", "findprocesswindows",
	}}
)

// A sharedRun is one analysistest run of analyzer.Analyzer over pkgs,
// made by the first test that needs it.
type sharedRun struct {
	fixes bool // RunWithSuggestedFixes, not Run
	pkgs  []string

	once    sync.Once
	results []*analysistest.Result
	msgs    recorder
}

// run reports to t what the shared run found wrong with pkgs, each of
// which must be among its packages, and returns their results.
func (r *sharedRun) run(t *testing.T, pkgs ...string) []*analysistest.Result {
	t.Helper()
	results := r.resultsOf(t, pkgs...)
	for _, msg := range r.msgs {
		if pkg, ok := messagePackage(msg); !ok || slices.Contains(pkgs, pkg) {
			t.Error(msg)
		}
	}
	return results
}

// resultsOf returns the shared run's results for pkgs, without its
// messages, as analysistest.Run with a Testing that discards them does.
func (r *sharedRun) resultsOf(t *testing.T, pkgs ...string) []*analysistest.Result {
	t.Helper()
	for _, p := range pkgs {
		if !slices.Contains(r.pkgs, p) {
			t.Fatalf("%s is not among the shared run's packages: add it to the list in shared_test.go", p)
		}
	}
	r.once.Do(func() {
		if r.fixes {
			r.results = analysistest.RunWithSuggestedFixes(&r.msgs, testdata, analyzer.Analyzer, r.pkgs...)
		} else {
			r.results = analysistest.Run(&r.msgs, testdata, analyzer.Analyzer, r.pkgs...)
		}
	})
	var results []*analysistest.Result
	for _, res := range r.results {
		if inPackages(res.Action.Package.PkgPath, pkgs) {
			results = append(results, res)
		}
	}
	return results
}

// inPackages reports whether pkgPath is one of pkgs, its external test
// package, or its test main.
func inPackages(pkgPath string, pkgs []string) bool {
	return slices.Contains(pkgs, pkgPath) || slices.Contains(pkgs, strings.TrimSuffix(pkgPath, "_test")) || slices.Contains(pkgs, strings.TrimSuffix(pkgPath, ".test"))
}

// hostResults returns the results for pkgs of whichever shared run has
// each.
func hostResults(t *testing.T, pkgs ...string) []*analysistest.Result {
	t.Helper()
	var results []*analysistest.Result
	for _, p := range pkgs {
		run := hostPlain
		if slices.Contains(hostFixes.pkgs, p) {
			run = hostFixes
		}
		results = append(results, run.resultsOf(t, p)...)
	}
	return results
}

var goFile = regexp.MustCompile(`[^\s:"'(]+\.go\b`)

// messagePackage returns the testdata package whose file an analysistest
// message names first, a path that is absolute, relative to this
// directory, or relative to testdata/src. A message that names no file
// there belongs to no package: every test that shares the run gets it.
func messagePackage(msg string) (string, bool) {
	file := goFile.FindString(msg)
	if file == "" {
		return "", false
	}
	src := filepath.Join(testdata, "src")
	candidates := []string{file}
	if !filepath.IsAbs(file) {
		abs, _ := filepath.Abs(file)
		candidates = []string{abs, filepath.Join(src, file)}
	}
	for _, c := range candidates {
		rel, err := filepath.Rel(src, c)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return path.Dir(filepath.ToSlash(rel)), true
		}
	}
	return "", false
}

// TestMessagePackage checks the routing of analysistest's messages: by the
// first file named, in each form analysistest names it; a message naming
// no testdata file goes to every test.
func TestMessagePackage(t *testing.T) {
	t.Parallel()
	abs := filepath.Join(testdata, "src", "signalstale", "pidfile", "pidfile.go")
	for msg, want := range map[string]string{
		abs + ":3:1: unexpected diagnostic: PL007":                              "signalstale/pidfile",
		"errtext/errtext.go:14: no diagnostic was reported matching `x.go`":     "errtext",
		"all fixes: unexpected ../testdata/src/signalnil/signalnil.go content:": "signalnil",
		"Analyze: internal error":                                               "",
		"loading [errtext]: no such file nothere/none.go":                       "",
		"/usr/local/go/src/os/exec.go:1:1: something":                           "",
	} {
		got, ok := messagePackage(msg)
		if got != want || ok != (want != "") {
			t.Errorf("messagePackage(%q) = %q, %v; want %q", msg, got, ok, want)
		}
	}
}
