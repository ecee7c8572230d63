package pidlint

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestStages runs tools/stages/run.sh, the runner behind make test, on
// four stages of which the second (a go test run with a failing test and
// one that times out) and the fourth (no test) fail: each stage is
// announced and timed, the ones after a failure still run, the run fails,
// and the summary lists every stage and says, under each failed one, which
// test failed and why, which test was running when go test timed out, or
// else the stage's last lines.
func TestStages(t *testing.T) {
	t.Parallel()
	makeCmd := lookMake(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	dir := t.TempDir()
	files := fstest.MapFS{
		"Makefile": {Data: []byte("first:\n\t@echo first ran\n" +
			"second:\n\tcd mod && " + goCmd + " test -count=1 -timeout=3s ./...\n" +
			"third:\n\t@sleep 0.2; echo third ran\n" +
			"fourth:\n\t@echo gofmt -l:; echo bad.go; exit 1\n")},
		"mod/go.mod":              {Data: []byte("module example.com/stages\n\ngo 1.21\n")},
		"mod/fails/fails_test.go": {Data: []byte("package fails\n\nimport \"testing\"\n\nfunc TestWrong(t *testing.T) {\n\tt.Errorf(\"got 2, want 1\")\n}\n")},
		"mod/hangs/hangs_test.go": {Data: []byte("package hangs\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestHang(t *testing.T) {\n\ttime.Sleep(time.Minute)\n}\n")},
	}
	if err := os.CopyFS(dir, files); err != nil {
		t.Fatal(err)
	}
	runner, err := filepath.Abs(filepath.Join("tools", "stages", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", runner, "first", "second", "third", "fourth")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MAKE="+makeCmd, "GOWORK=off", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("run.sh: %v, want exit 1\n%s", err, out)
	}
	for _, re := range []string{
		`(?m)^=== stage 1/4: first\nfirst ran\n=== stage 1/4: first: ok \((\d+m)?\d+\.\ds\)$`,
		`(?m)^=== stage 2/4: second: FAIL \((\d+m)?\d+\.\ds\)$`,
		`(?m)^third ran\n=== stage 3/4: third: ok \((0\.[2-9]|[1-9]\d*\.\d|\d+m\d+\.\d)s\)$`, // sleep 0.2: slower on a busy machine
		`(?m)^=== stage 4/4: fourth: FAIL \((\d+m)?\d+\.\ds\)$`,
		`(?m)^=== summary\nok    first\s+(\d+m)?\d+\.\ds\nFAIL  second\s+(\d+m)?\d+\.\ds\n` +
			`      example.com/stages/fails: TestWrong: fails_test.go:6: got 2, want 1\n` +
			`      example.com/stages/hangs: timed out after 3s, running TestHang \(\d+s\)\n` +
			`ok    third\s+(\d+m)?\d+\.\ds\nFAIL  fourth\s+(\d+m)?\d+\.\ds\n      gofmt -l:\n      bad.go\n=== FAIL in (\d+m)?\d+\.\ds$`,
	} {
		if !regexp.MustCompile(re).Match(out) {
			t.Errorf("output does not match %s:\n%s", re, out)
		}
	}
}

// TestMakeTargets checks what make test and make test-quick run, with
// make -n (which still runs the stage runner, as its line uses $(MAKE),
// and has it print each stage's commands): every stage of make test in
// order, and for test-quick gofmt, vet and the short unit tests.
func TestMakeTargets(t *testing.T) {
	makeCmd := lookMake(t)
	dryRun := func(target string) string {
		out, err := exec.Command(makeCmd, "-n", "--no-print-directory", target).CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		return string(out)
	}
	stages := regexp.MustCompile(`(?m)^=== stage \d+/\d+: ([a-z-]+)$`)
	var got []string
	for _, m := range stages.FindAllStringSubmatch(dryRun("test"), -1) {
		got = append(got, m[1])
	}
	want := []string{"check", "unit", "cross", "compat", "bench-build", "sarifcheck", "pyparser", "fuzz", "soak-quick", "golangci", "initscript", "wine"}
	if !slices.Equal(got, want) {
		t.Errorf("make test stages %v, want %v", got, want)
	}
	quick := dryRun("test-quick")
	for _, s := range []string{"=== stage 1/2: check\n", "gofmt -l", "go vet ./...\n", "=== stage 2/2: unit-quick\ngo test -short -timeout=10m ./...\n", "cd safeprobe && go test -short -timeout=10m ./...\n", "=== summary\n"} {
		if !strings.Contains(quick, s) {
			t.Errorf("make -n test-quick does not show %q:\n%s", s, quick)
		}
	}
}

// TestMakeSafeprobe checks, with make -n, that the stages run safeprobe,
// a module of its own that ./... here does not reach, from its directory:
// vet, the race-enabled tests, the cross-OS vet and test builds, its fuzz
// targets, and the same with the Go of its go line (compat).
func TestMakeSafeprobe(t *testing.T) {
	makeCmd := lookMake(t)
	for target, wants := range map[string][]string{
		"check":      {"cd safeprobe && go vet ./...\n"},
		"unit":       {"(cd safeprobe && go test -race -count=1 -timeout=30m ./...)"},
		"unit-quick": {"cd safeprobe && go test -short -timeout=10m ./...\n"},
		"cross": {
			"(cd safeprobe && GOOS=$os GOARCH=$arch go vet ./... &&",
			"GOOS=$os GOARCH=$arch go test -count=1 -run=NONE -timeout=1m -exec=true ./... >/dev/null);",
			"cd safeprobe; for t in linux/386 ",
		},
		"fuzz": {"safeprobe:.:FuzzParseStat", "safeprobe:.:FuzzProcLocks", "(cd $dir && go test -run=NONE -fuzz="},
		"compat": {
			"cd safeprobe;",
			"GOTOOLCHAIN=go1.21.13 go version;",
			"GOTOOLCHAIN=go1.21.13 GOOS=$os GOARCH=$arch go vet ./...;",
			"GOTOOLCHAIN=go1.21.13 GOOS=${t%/*} GOARCH=${t#*/} go vet ./...;",
			"GOTOOLCHAIN=go1.21.13 go test -count=1 -timeout=10m ./...",
		},
	} {
		out, err := exec.Command(makeCmd, "-n", "--no-print-directory", "GO=go", target).CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		for _, want := range wants {
			if !strings.Contains(string(out), want) {
				t.Errorf("make -n %s does not show %q:\n%s", target, want, out)
			}
		}
	}
	// The compat Go is a release of safeprobe's go line.
	out, err := exec.Command(makeCmd, "-n", "--no-print-directory", "GO=go", "compat").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n compat: %v\n%s", err, out)
	}
	if want := "GOTOOLCHAIN=go" + GoVersion() + "."; GoVersion() == "" || !strings.Contains(string(out), want) {
		t.Errorf("make compat does not test with a release of safeprobe's go line (%q):\n%s", want, out)
	}
}

// TestMakeTimeouts checks that no go test run of make test leans on go
// test's 10-minute default: each passes -timeout, in the stages' commands
// (make -n) and in the scripts that stages run.
func TestMakeTimeouts(t *testing.T) {
	makeCmd := lookMake(t)
	out, err := exec.Command(makeCmd, "-n", "--no-print-directory", "GO=go", "test").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n test: %v\n%s", err, out)
	}
	lines := strings.Split(string(out), "\n")
	for _, script := range []string{"tools/golangci/test.sh", "tools/wine/test.sh"} {
		if !strings.Contains(string(out), "bash "+script) {
			t.Errorf("make test does not run %s", script)
		}
		src, err := os.ReadFile(script)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(src), "\n")...)
	}
	runs := 0
	goTest := regexp.MustCompile(`\bgo(\}|\))? test\b`)
	for _, line := range lines {
		if !goTest.MatchString(line) || strings.HasPrefix(strings.TrimSpace(line), "#") || strings.HasPrefix(strings.TrimSpace(line), "echo ") {
			continue
		}
		runs++
		if !strings.Contains(line, "-timeout") && !strings.Contains(line, `"$@"`) {
			t.Errorf("go test without -timeout: %s", strings.TrimSpace(line))
		}
	}
	if !strings.Contains(string(out), "bash tools/wine/test.sh -timeout=") {
		t.Errorf("make test runs the Wine tests without -timeout")
	}
	if runs < 8 {
		t.Errorf("found %d go test runs in make test, want every stage's", runs)
	}
}

func lookMake(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on PATH")
	}
	return path
}
