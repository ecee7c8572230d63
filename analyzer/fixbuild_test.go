package analyzer_test

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

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
			edits := make(map[string][]offsetEdit)
			var pkgs []string
			for _, run := range fixedRuns {
				collectEdits(edits, analysistest.Run(discard{}, testdata, run.a, run.pkgs...))
				pkgs = append(pkgs, run.pkgs...)
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
			built := 0
			for _, pkg := range pkgs {
				if goBuild(testdata, pkg) != nil {
					continue // does not build for this OS even unfixed
				}
				built++
				if err := goBuild(fixed, pkg); err != nil {
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

// collectEdits adds the edits of the first fix of each diagnostic.
func collectEdits(edits map[string][]offsetEdit, results []*analysistest.Result) {
	for _, res := range results {
		if res.Pass == nil {
			continue
		}
		for _, d := range res.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			for _, e := range d.SuggestedFixes[0].TextEdits {
				addEdit(edits, res.Pass, e)
			}
		}
	}
}

func addEdit(edits map[string][]offsetEdit, pass *analysis.Pass, e analysis.TextEdit) {
	tf := pass.Fset.File(e.Pos)
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

func goBuild(gopath, pkg string) error {
	cmd := exec.Command("go", "build", "-o", os.DevNull, pkg)
	cmd.Env = append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off")
	cmd.Dir = gopath
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
