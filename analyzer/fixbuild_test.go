package analyzer_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/pidlint/pidlint/analyzer"
)

// fixedPackages are the testdata packages whose findings carry fixes with
// the default safeprobe path.
var fixedPackages = []string{
	"killzero", "killzeroimports", "signalzero", "signalwindows",
	"findprocess", "findprocesswindows", "procstat", "wrapper/procutil", "wrapper/daemon", "signalstalefix", "signalnil", "ownchild",
	"pidonly",
}

// fixedRuns are the analyzers whose fixes TestFixesBuild builds, each
// with its testdata packages: the default, and vendored safeprobe copies.
var fixedRuns = []struct {
	a    *analysis.Analyzer
	pkgs []string
}{
	{analyzer.Analyzer, fixedPackages},
	{analyzer.New(analyzer.Config{SafeprobePath: "example.com/vendored/safeprobe"}), []string{"customsafeprobe"}},
	{analyzer.New(analyzer.Config{SafeprobePath: "example.com/m/internal/pidlintsafeprobe"}), []string{"example.com/m/daemon"}},
}

// TestFixesBuild applies every suggested fix as golangci-lint --fix does
// (all edits at once, identical edits merged, no import clean-up and no
// reformatting) and checks, for linux, windows and darwin, that each
// package that built before still builds and stays gofmt-clean.
func TestFixesBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds testdata for three OSes")
	}
	for _, goos := range []string{"linux", "windows", "darwin"} {
		t.Run(goos, func(t *testing.T) {
			t.Setenv("GOOS", goos)
			t.Setenv("GOARCH", "amd64")
			fixed := t.TempDir()
			if err := os.CopyFS(fixed, os.DirFS(testdata)); err != nil {
				t.Fatal(err)
			}
			var pkgs []string
			for _, run := range fixedRuns {
				pkgs = append(pkgs, run.pkgs...)
			}
			// One load of every package for this OS: the first analyzer
			// runs through analysistest, the others on what it loaded.
			loaded := analysistest.Run(discard{}, testdata, fixedRuns[0].a, pkgs...)
			edits := make(map[string][]offsetEdit)
			for i, run := range fixedRuns {
				var roots []*checker.Action
				for _, res := range loaded {
					if inPackages(res.Action.Package.PkgPath, run.pkgs) {
						roots = append(roots, res.Action)
					}
				}
				if len(roots) == 0 {
					t.Fatalf("%v: not loaded", run.pkgs)
				}
				actions := roots
				if i > 0 {
					var rootPkgs []*packages.Package
					for _, act := range roots {
						rootPkgs = append(rootPkgs, act.Package)
					}
					graph, err := checker.Analyze([]*analysis.Analyzer{run.a}, rootPkgs, nil)
					if err != nil {
						t.Fatal(err)
					}
					actions = graph.Roots
				}
				for _, act := range actions {
					collectEdits(edits, act)
				}
			}
			if len(edits) == 0 {
				t.Fatal("no suggested fixes: the test would prove nothing")
			}
			for file, es := range edits {
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				out, err := applyEdits(src, es)
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				if formatted, err := format.Source(out); err != nil || !bytes.Equal(formatted, out) {
					t.Errorf("%s: fixed file is not gofmt-clean (err %v):\n%s", file, err, out)
				}
				rel, _ := filepath.Rel(testdata, file)
				if err := os.WriteFile(filepath.Join(fixed, rel), out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// One go build over every package, before the fixes and
			// after: a package built when neither it nor a package it
			// imports failed.
			before := goBuild(t, testdata, pkgs)
			after := goBuild(t, fixed, pkgs)
			built := 0
			for _, pkg := range pkgs {
				if before[pkg] != nil {
					continue // does not build for this OS even unfixed
				}
				built++
				if err := after[pkg]; err != nil {
					t.Errorf("%s builds for %s before its fixes but not after:\n%v", pkg, goos, err)
				}
			}
			if built == 0 {
				t.Fatalf("no testdata package builds for %s", goos)
			}
		})
	}
}

// discard is an analysistest.Testing that ignores expectation mismatches:
// they are TestKillZero's business, and differ by GOOS.
type discard struct{}

func (discard) Errorf(string, ...any) {}

type offsetEdit struct {
	start, end int
	text       string
}

// collectEdits adds the edits of the first fix of each diagnostic of act.
func collectEdits(edits map[string][]offsetEdit, act *checker.Action) {
	for _, d := range act.Diagnostics {
		if len(d.SuggestedFixes) == 0 {
			continue
		}
		for _, e := range d.SuggestedFixes[0].TextEdits {
			addEdit(edits, act.Package.Fset, e)
		}
	}
}

func addEdit(edits map[string][]offsetEdit, fset *token.FileSet, e analysis.TextEdit) {
	tf := fset.File(e.Pos)
	end := e.End
	if !end.IsValid() {
		end = e.Pos
	}
	oe := offsetEdit{tf.Offset(e.Pos), tf.Offset(end), string(e.NewText)}
	if !slices.Contains(edits[tf.Name()], oe) {
		edits[tf.Name()] = append(edits[tf.Name()], oe)
	}
}

// applyEdits applies non-overlapping edits; overlapping ones are an error,
// as they are for golangci-lint.
func applyEdits(src []byte, edits []offsetEdit) ([]byte, error) {
	slices.SortFunc(edits, func(a, b offsetEdit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.end - b.end
	})
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last {
			return nil, fmt.Errorf("overlapping edits at offset %d", e.start)
		}
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

// goBuild runs one go build of pkgs in the GOPATH tree gopath and returns,
// for each package that does not build, why: its compiler errors, or
// those of the packages it imports that do not build.
func goBuild(t *testing.T, gopath string, pkgs []string) map[string]error {
	t.Helper()
	env := append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")
	// go build -json reports a failure under the package that failed
	// alone: its importers are not built, and not named.
	build := exec.Command("go", append([]string{"build", "-json", "-o", os.DevNull}, pkgs...)...)
	build.Env, build.Dir = env, gopath
	var stdout, stderr bytes.Buffer
	build.Stdout, build.Stderr = &stdout, &stderr
	buildErr := build.Run()
	output := make(map[string]*strings.Builder)
	failed := make(map[string]bool)
	dec := json.NewDecoder(&stdout)
	for {
		var ev struct{ ImportPath, Action, Output string }
		if err := dec.Decode(&ev); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go build -json: %v\n%s", err, stderr.Bytes())
		}
		if output[ev.ImportPath] == nil {
			output[ev.ImportPath] = new(strings.Builder)
		}
		output[ev.ImportPath].WriteString(ev.Output)
		if ev.Action == "build-fail" {
			failed[ev.ImportPath] = true
		}
	}
	if buildErr != nil && len(failed) == 0 {
		t.Fatalf("go build %s: %v\n%s", strings.Join(pkgs, " "), buildErr, stderr.Bytes())
	}
	// Each package with the packages it imports, to find those that
	// fail because an import does.
	list := exec.Command("go", append([]string{"list", "-e", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`}, pkgs...)...)
	list.Env, list.Dir = env, gopath
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(pkgs, " "), err)
	}
	errs := make(map[string]error)
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		var why []string
		for _, p := range f {
			if failed[p] {
				why = append(why, strings.TrimSpace(output[p].String()))
			}
		}
		if len(why) > 0 {
			errs[f[0]] = errors.New(strings.Join(why, "\n"))
		}
	}
	return errs
}

// TestGoBuildNamesFailures checks goBuild on a GOPATH tree where a does
// not compile, b imports a and c builds: a and b fail, a's error naming
// its line, and c does not.
func TestGoBuildNamesFailures(t *testing.T) {
	t.Parallel()
	gopath := t.TempDir()
	for name, src := range map[string]string{
		"a/a.go": "package a\n\nfunc F() int { return \"x\" }\n",
		"b/b.go": "package b\n\nimport \"a\"\n\nvar X = a.F()\n",
		"c/c.go": "package c\n\nvar Y = 1\n",
	} {
		name = filepath.Join(gopath, "src", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	errs := goBuild(t, gopath, []string{"a", "b", "c"})
	for _, pkg := range []string{"a", "b"} {
		if err := errs[pkg]; err == nil || !strings.Contains(err.Error(), "a.go:3:") {
			t.Errorf("%s: error %v, want a's compiler error", pkg, err)
		}
	}
	if err := errs["c"]; err != nil {
		t.Errorf("c: %v, want none", err)
	}
}
