package analyzer_test

import (
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pidlint/pidlint/analyzer"
)

// testdataPackages lists every package under testdata/src, by import path.
func testdataPackages(t testing.TB, root string) []string {
	t.Helper()
	var pkgs []string
	err := filepath.WalkDir(filepath.Join(root, "src"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(root, "src"), filepath.Dir(path))
		if rel = filepath.ToSlash(rel); !slices.Contains(pkgs, rel) {
			pkgs = append(pkgs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// diagnosticWant matches an expectation of a diagnostic, not of a fact.
var diagnosticWant = regexp.MustCompile("// want [\"`]")

// TestMayReportAcceptsFindings checks that MayReport is a superset of the
// analyzer: every testdata file with a finding, in a run for linux and one
// for windows (with -strict, which reports the raw probes too; on linux
// the windows-only files are checked from their syntax), and every file
// that expects a diagnostic, is accepted.
func TestMayReportAcceptsFindings(t *testing.T) {
	pkgs := testdataPackages(t, testdata)
	files := map[string]bool{} // files with a finding
	for _, goos := range []string{"linux", "windows"} {
		t.Setenv("GOOS", goos)
		for _, res := range analysistest.Run(discard{}, testdata, analyzer.New(analyzer.Config{Strict: true}), pkgs...) {
			for _, d := range res.Diagnostics {
				files[res.Pass.Fset.Position(d.Pos).Filename] = true
			}
		}
	}
	err := filepath.WalkDir(filepath.Join(testdata, "src"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if diagnosticWant.Match(src) {
			files[path] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("only %d testdata files with findings: the test would prove little", len(files))
	}
	for file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !analyzer.MayReport(src) {
			t.Errorf("MayReport rejects %s, which has findings", file)
		}
	}
}

// TestMayExportFactsAcceptsFacts checks that MayExportFacts is a superset
// of the analyzer: every testdata package that exports a fact, given all
// its files, is accepted.
func TestMayExportFactsAcceptsFacts(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, res := range analysistest.Run(discard{}, testdata, analyzer.Analyzer, testdataPackages(t, testdata)...) {
		if res.Pass == nil || len(res.Facts) == 0 {
			continue
		}
		var srcs [][]byte
		for _, f := range res.Pass.Files {
			src, err := os.ReadFile(res.Pass.Fset.Position(f.Pos()).Filename)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, src)
		}
		if !analyzer.MayExportFacts(srcs...) {
			t.Errorf("MayExportFacts rejects %s, which exports %v", res.Pass.Pkg.Path(), factNames(res.Facts))
		}
		checked++
	}
	if checked < 8 {
		t.Fatalf("only %d testdata packages export facts: the test would prove little", checked)
	}
}

func factNames[K comparable, F any](facts map[K][]F) []string {
	var out []string
	for obj, fs := range facts {
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%v: %v", obj, f))
		}
	}
	slices.Sort(out)
	return out
}

// prefilterCase is one package of one or more files, with what the
// analyzer finds in it: whether it reports anything, whether it exports a
// fact. A look-alike must be rejected by both filters.
type prefilterCase struct {
	name           string
	files          []string // sources; "package p" is prepended
	reports, facts bool
	lookAlike      bool
}

// prefilterCases are the shapes each clause of the filters is for, and
// look-alikes they must reject: conversions, calls without the argument
// that makes a probe, commands that probe nothing, words in comments.
var prefilterCases = []prefilterCase{
	{"kill zero", []string{`import "syscall"
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }`}, true, false, false},
	{"signal zero", []string{`import ("os"; "syscall")
func alive(p *os.Process) bool { return p.Signal(syscall.Signal(0)) == nil }`}, true, false, false},
	{"syscall kill", []string{`import "syscall"
func alive(pid int) bool { _, _, e := syscall.Syscall(syscall.SYS_KILL, uintptr(pid), 0, 0); return e == 0 }`}, true, false, false},
	{"find process", []string{`import "os"
func exists(pid int) bool { _, err := os.FindProcess(pid); return err == nil }`}, true, false, false},
	{"proc stat", []string{`import ("fmt"; "os")
func alive(pid int) bool { _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); return err == nil }`}, true, false, false},
	{"kill -0 command", []string{`import ("os/exec"; "strconv")
func alive(pid int) bool { return exec.Command("kill", "-0", strconv.Itoa(pid)).Run() == nil }`}, true, false, false},
	{"error text", []string{`import "os"
func gone(p *os.Process) bool { err := p.Release(); return err.Error() == "os: process already finished" }`}, true, false, false},
	{"stale signal", []string{`import ("os"; "strconv"; "strings"; "syscall")
func stop(path string) error {
	data, err := os.ReadFile(path)
	if err != nil { return err }
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil { return err }
	return syscall.Kill(n, syscall.SIGTERM)
}`}, true, false, false},
	{"stale process kill", []string{`import ("os"; "strconv")
func stop(path string) error {
	data, _ := os.ReadFile(path)
	n, _ := strconv.Atoi(string(data))
	p, _ := os.FindProcess(n)
	return p.Kill()
}`}, true, false, false},
	{"exclusive pid file", []string{`import ("fmt"; "os")
func start(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil { return err }
	_, err = fmt.Fprintf(f, "%d", os.Getpid())
	return err
}`}, true, false, false},
	{"pid file exists", []string{`import ("errors"; "fmt"; "os")
func start(pidFile string) error {
	if _, err := os.Stat(pidFile); err == nil { return errors.New("already running") }
	return os.WriteFile(pidFile, fmt.Appendf(nil, "%d", os.Getpid()), 0o644)
}`}, true, false, false},
	// The guard in one file, the PID file written in another: the
	// file with the guard is accepted on its own.
	{"liveness guard", []string{`import ("errors"; "os"; "strconv")
func start(f string) error {
	data, _ := os.ReadFile(f)
	n, _ := strconv.Atoi(string(data))
	if isRunning(n) { return errors.New("already running") }
	return write(f)
}`, `import ("fmt"; "os"; "syscall")
func isRunning(n int) bool { return syscall.Kill(n, 0) == nil }
func write(f string) error { return os.WriteFile(f, fmt.Appendf(nil, "%d", os.Getpid()), 0o644) }`}, true, false, false},
	// A stored PID read in one file, its record's PID field named in
	// another: only the package as a whole shows the fact.
	{"record across files", []string{`import ("encoding/json"; "os")
func Load(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if err != nil { return nil, err }
	var st State
	return &st, json.Unmarshal(data, &st)
}`, `type State struct { Pid int; Name string }`}, false, true, false},
	{"integer read", []string{`import ("os"; "strconv")
func Read(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil { return 0, err }
	return strconv.Atoi(string(data))
}`}, false, true, false},
	{"wrapper", []string{`import "syscall"
func Signal(n int, sig syscall.Signal) error { return syscall.Kill(n, sig) }`}, false, true, false},

	{"signal conversions", []string{`import ("os"; "syscall")
var sigs = map[string]os.Signal{"HUP": syscall.Signal(0x1), "TERM": syscall.SIGTERM}`}, false, false, true},
	{"signal methods without a signal", []string{`type status interface{ Signal() int; CleanOnSignal() }
func describe(s status) int { s.CleanOnSignal(); return s.Signal() }`}, false, false, true},
	{"commands that probe nothing", []string{`import "os/exec"
func version() ([]byte, error) { return exec.Command("sw_vers", "--productVersion").Output() }`}, false, false, true},
	{"probe words in comments", []string{`import ("os"; "os/exec")
// pgrep emulates pgrep: kill -0 is not on Windows, nor /proc/<pid>;
// os.FindProcess(pid) and p.Signal(syscall.Signal(0)) neither.
func find(n string) error {
	if _, err := os.Stat(n); err != nil { return err }
	return exec.Command("tasklist.exe", "/fi", "IMAGENAME eq "+n).Run()
}`}, false, false, true},
	{"error text of other errors", []string{`func broken(err error) bool { return err.Error() == "connection refused" }`}, false, false, true},
	{"files read and written", []string{`import "os"
func Load(path string) ([]byte, error) {
	if _, err := os.Stat(path); err == nil { return nil, os.ErrExist }
	f, err := os.OpenFile(path, os.O_RDONLY, 0)
	if err != nil { return nil, err }
	defer f.Close()
	return os.ReadFile(path)
}`}, false, false, true},
}

// TestPrefilterCases checks the filters on packages made for each clause
// and on look-alikes: they accept whatever the analyzer reports or
// exports a fact for, and reject the look-alikes. The analyzer itself is
// run on each package, so a case whose expectation is wrong fails too.
func TestPrefilterCases(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the cases probe with kill(2)")
	}
	root := t.TempDir()
	var pkgs []string
	for i, c := range prefilterCases {
		pkg := fmt.Sprintf("case%02d", i)
		pkgs = append(pkgs, pkg)
		dir := filepath.Join(root, "src", pkg)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for j, src := range c.files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", j)), []byte("package p\n\n"+src+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	results := analysistest.Run(discard{}, root, analyzer.Analyzer, pkgs...)
	for _, res := range results {
		i := slices.Index(pkgs, res.Pass.Pkg.Path())
		c := prefilterCases[i]
		reported := map[string]bool{}
		for _, d := range res.Diagnostics {
			reported[filepath.Base(res.Pass.Fset.Position(d.Pos).Filename)] = true
		}
		if len(res.Pass.TypeErrors) > 0 {
			t.Errorf("%s: %v", c.name, res.Pass.TypeErrors)
		}
		if got := len(reported) > 0; got != c.reports {
			t.Errorf("%s: the analyzer reports %v, want %v (the case is wrong)", c.name, got, c.reports)
		}
		if got := len(res.Facts) > 0; got != c.facts {
			t.Errorf("%s: the analyzer exports facts %v, want %v (the case is wrong)", c.name, factNames(res.Facts), c.facts)
		}
		var srcs [][]byte
		for j, f := range res.Pass.Files {
			src := []byte("package p\n\n" + c.files[j] + "\n")
			name := filepath.Base(res.Pass.Fset.Position(f.Pos()).Filename)
			if got := analyzer.MayReport(src); !got && reported[name] || got && c.lookAlike {
				t.Errorf("%s, %s: MayReport = %v; the analyzer reports here: %v", c.name, name, got, reported[name])
			}
			srcs = append(srcs, src)
		}
		if got := analyzer.MayExportFacts(srcs...); !got && c.facts || got && c.lookAlike {
			t.Errorf("%s: MayExportFacts = %v; the analyzer exports facts: %v", c.name, got, c.facts)
		}
	}
}

// goSources reads the Go files of the standard library's source tree,
// tests and testdata left out, grouped by directory: a large corpus that
// every machine with Go has.
func goSources(b *testing.B) (files [][]byte, pkgs [][][]byte) {
	b.Helper()
	root := filepath.Join(build.Default.GOROOT, "src")
	byDir := map[string][][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		src, err := os.ReadFile(path)
		files = append(files, src)
		byDir[filepath.Dir(path)] = append(byDir[filepath.Dir(path)], src)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, dir := range slices.Sorted(maps.Keys(byDir)) {
		pkgs = append(pkgs, byDir[dir])
	}
	return files, pkgs
}

// BenchmarkMayReport measures MayReport over the standard library's
// files; ns/file is the cost per file.
func BenchmarkMayReport(b *testing.B) {
	files, _ := goSources(b)
	accepted := 0
	b.ResetTimer()
	for b.Loop() {
		accepted = 0
		for _, src := range files {
			if analyzer.MayReport(src) {
				accepted++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/file")
	b.ReportMetric(float64(accepted)/float64(len(files)), "accepted/file")
}

// BenchmarkMayExportFacts measures MayExportFacts over the standard
// library's packages, each given all its files; ns/file is the cost per
// file.
func BenchmarkMayExportFacts(b *testing.B) {
	files, pkgs := goSources(b)
	accepted := 0
	b.ResetTimer()
	for b.Loop() {
		accepted = 0
		for _, srcs := range pkgs {
			if analyzer.MayExportFacts(srcs...) {
				accepted++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/file")
	b.ReportMetric(float64(accepted)/float64(len(pkgs)), "accepted/pkg")
}

// BenchmarkParse is what the filters spare: parsing the same files.
func BenchmarkParse(b *testing.B) {
	files, _ := goSources(b)
	b.ResetTimer()
	for b.Loop() {
		for _, src := range files {
			if _, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ParseComments|parser.SkipObjectResolution); err != nil {
				_ = err // a file of another GOOS may use syntax of its own: its cost counts all the same
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/file")
}
