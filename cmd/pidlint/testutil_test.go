package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// repoRoot is the pidlint module's directory.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

var (
	binDir  string // holds the pidlint binary the tests run
	binPath string
	binErr  error
)

// TestMain does once for the whole test binary what the end-to-end tests
// share: pidlint, which they run as a command and as go vet's -vettool,
// is built before the first test (none in -short mode, where no test
// runs it), and the checksum database cache is warmed.
func TestMain(m *testing.M) {
	flag.Parse()
	var err error
	binDir, err = os.MkdirTemp("", "pidlint-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The runs keep their other-GOOS builds in a cache of their own.
	os.Setenv("PIDLINT_CACHE", filepath.Join(binDir, "cache"))
	if err := warmChecksums(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	if !testing.Short() {
		binPath = filepath.Join(binDir, "pidlint")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build ./cmd/pidlint: %v\n%s", err, out)
		}
	}
	code := m.Run()
	// A module cache's directories are read-only: let them be removed.
	filepath.WalkDir(binDir, func(name string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(name, 0o755)
		}
		return nil
	})
	os.RemoveAll(binDir)
	os.Exit(code)
}

// warmChecksums has the go command look up, through the module proxy,
// the checksums of the modules that the offline tests (GOPROXY=off, or a
// proxy on disk) add to a user's go.mod, so that the module cache's copy
// of the checksum database holds them: "go mod download" of this module
// verifies against go.sum and looks nothing up.
func warmChecksums() error {
	dir, err := os.MkdirTemp("", "pidlint-sum-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	// Every module of this module's build list and safeprobe's: the tests
	// add safeprobe's x/sys to users' modules and install pidlint itself
	// from a proxy on disk.
	args := []string{"mod", "download"}
	for _, name := range []string{"go.mod", filepath.Join("safeprobe", "go.mod")} {
		gomod, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			return err
		}
		for line := range strings.Lines(string(gomod)) {
			f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
			if len(f) >= 2 && strings.Contains(f[0], ".") && strings.HasPrefix(f[1], "v") {
				args = append(args, f[0]+"@"+f[1])
			}
		}
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("warming the checksum database cache (the offline tests need it): %v\n%s", err, out)
	}
	return nil
}

// pidlintBin returns the path of the pidlint binary TestMain built.
func pidlintBin(t testing.TB) string {
	t.Helper()
	if binErr != nil {
		t.Fatal(binErr)
	}
	if binPath == "" {
		t.Fatal("pidlint was not built: the test runs it in -short mode")
	}
	return binPath
}

// copyModule copies the module testdata/name into a new temporary
// directory and makes its go.mod resolve github.com/pidlint/pidlint/safeprobe,
// a module of its own, to this checkout, so that the safeprobe import a
// fix adds builds.
func copyModule(t testing.TB, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeModuleCopy(dir, name); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sharedModule returns a copy of testdata/name, made as copyModule makes
// it, once per test binary, for the tests that only read it: they share
// the go command's cached vet results and pidlint's cached builds for
// other GOOS. A test that changes the module takes copyModule's.
func sharedModule(t testing.TB, name string) string {
	t.Helper()
	v, _ := sharedModules.LoadOrStore(name, new(sharedCopy))
	c := v.(*sharedCopy)
	c.once.Do(func() {
		c.dir = filepath.Join(binDir, "modules", name)
		c.err = writeModuleCopy(c.dir, name)
	})
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c.dir
}

var sharedModules sync.Map // module name → *sharedCopy

type sharedCopy struct {
	once sync.Once
	dir  string
	err  error
}

func writeModuleCopy(dir, name string) error {
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	gomod = fmt.Appendf(gomod, "\n%s", requireCheckout)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), gomod, 0o644); err != nil {
		return err
	}
	// The module's dependencies are safeprobe's: its go.sum covers them.
	sum, err := os.ReadFile(filepath.Join(repoRoot, "safeprobe", "go.sum"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
}

// requireCheckout is what go.mod needs to take safeprobe from this
// checkout: the README's replace way.
var requireCheckout = fmt.Sprintf("require github.com/pidlint/pidlint/safeprobe v0.0.0\n\nreplace github.com/pidlint/pidlint/safeprobe => %s\n", filepath.Join(repoRoot, "safeprobe"))

// rootRequires returns the version of module path that pidlint's go.mod
// requires.
func rootRequires(t testing.TB, path string) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "edit", "-json", filepath.Join(repoRoot, "go.mod")).Output()
	if err != nil {
		t.Fatal(err)
	}
	var mod struct {
		Require []struct{ Path, Version string }
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	for _, r := range mod.Require {
		if r.Path == path {
			return r.Version
		}
	}
	t.Fatalf("go.mod does not require %s", path)
	return ""
}

// result is what a command did.
type result struct {
	stdout, stderr string
	code           int
}

// run runs name with args in dir and returns its output and exit code; it
// fails the test only when the command cannot be started.
func run(t testing.TB, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return result{stdout.String(), stderr.String(), code}
}

// mustRun is run that fails the test unless the command exits with want.
func mustRun(t testing.TB, want int, dir string, env []string, name string, args ...string) result {
	t.Helper()
	r := run(t, dir, env, name, args...)
	if r.code != want {
		t.Fatalf("%s %s in %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), dir, r.code, want, r.stdout, r.stderr)
	}
	return r
}

// gitEnv runs git apart from the user's and the system's configuration.
var gitEnv = []string{
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
	"GIT_AUTHOR_NAME=pidlint", "GIT_AUTHOR_EMAIL=pidlint@example.com",
	"GIT_COMMITTER_NAME=pidlint", "GIT_COMMITTER_EMAIL=pidlint@example.com",
}

// A want is a finding a test expects: file relative to the module, line
// and rule.
type want struct {
	file string
	line int
	rule string
}

func (w want) String() string { return fmt.Sprintf("%s:%d: %s", w.file, w.line, w.rule) }

// probesFindings are the findings in testdata/probes without -strict.
var probesFindings = []want{
	{"a/a.go", 11, "PL001"},
	{"b/b.go", 13, "PL006"},
	{"b/b.go", 22, "PL002"},
}

// textFindings extracts the findings from text output ("file:line:col:
// PL00N: message" lines), with file names relative to dir.
func textFindings(t testing.TB, dir, out string) []want {
	t.Helper()
	var got []want
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		if line == "" || strings.HasPrefix(line, "pidlint: ") {
			continue // not a finding: a skipped package, an error
		}
		// file:line:col: PL00N: message
		parts := strings.SplitN(line, ":", 5)
		if len(parts) < 5 {
			t.Errorf("unexpected output line %q", line)
			continue
		}
		var w want
		w.file = parts[0]
		if rel, err := filepath.Rel(dir, parts[0]); err == nil && !strings.HasPrefix(rel, "..") {
			w.file = filepath.ToSlash(rel)
		}
		fmt.Sscan(parts[1], &w.line)
		w.rule = strings.TrimSpace(parts[3])
		got = append(got, w)
	}
	return got
}

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkGofmt reports the Go files under dir that gofmt would change.
func checkGofmt(t testing.TB, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".go") {
			return err
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if out, err := format.Source(src); err != nil || !bytes.Equal(out, src) {
			t.Errorf("%s is not gofmt-clean (%v):\n%s", name, err, src)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
