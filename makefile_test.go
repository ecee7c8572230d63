package pidlint

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestStages runs tools/stages/run.sh, the runner behind make test, on
// three stages of which the second fails: each stage is announced and
// timed, the third still runs, the summary lists all three, and the run
// fails.
func TestStages(t *testing.T) {
	makeCmd := lookMake(t)
	dir := t.TempDir()
	mk := "first:\n\t@echo first ran\nsecond:\n\t@exit 2\nthird:\n\t@sleep 0.2; echo third ran\n"
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	runner, err := filepath.Abs(filepath.Join("tools", "stages", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", runner, "first", "second", "third")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MAKE="+makeCmd)
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("run.sh: %v, want exit 1\n%s", err, out)
	}
	for _, re := range []string{
		`(?m)^=== stage 1/3: first\nfirst ran\n=== stage 1/3: first: ok \(\d+\.\ds\)$`,
		`(?m)^=== stage 2/3: second: FAIL \(\d+\.\ds\)$`,
		`(?m)^third ran\n=== stage 3/3: third: ok \(0\.[2-9]s\)$`,
		`(?m)^=== summary\nok    first\s+\d+\.\ds\nFAIL  second\s+\d+\.\ds\nok    third\s+\d+\.\ds\n=== FAIL in \d+\.\ds$`,
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
	want := []string{"check", "unit", "cross", "compat", "bench-build", "sarifcheck", "fuzz", "soak-quick", "golangci", "initscript", "wine"}
	if !slices.Equal(got, want) {
		t.Errorf("make test stages %v, want %v", got, want)
	}
	quick := dryRun("test-quick")
	for _, s := range []string{"=== stage 1/2: check\n", "gofmt -l", "go vet ./...\n", "=== stage 2/2: unit-quick\ngo test -short ./...\n", "cd safeprobe && go test -short ./...\n", "=== summary\n"} {
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
		"unit":       {"cd safeprobe && go test -race -count=1 ./...\n"},
		"unit-quick": {"cd safeprobe && go test -short ./...\n"},
		"cross": {
			"(cd safeprobe && GOOS=$os GOARCH=$arch go vet ./... &&",
			"GOOS=$os GOARCH=$arch go test -count=1 -run=NONE -exec=true ./... >/dev/null);",
			"cd safeprobe; for t in linux/386 ",
		},
		"fuzz": {"safeprobe:.:FuzzParseStat", "safeprobe:.:FuzzProcLocks", "(cd $dir && go test -run=NONE -fuzz="},
		"compat": {
			"cd safeprobe;",
			"GOTOOLCHAIN=go1.21.13 go version;",
			"GOTOOLCHAIN=go1.21.13 GOOS=$os GOARCH=$arch go vet ./...;",
			"GOTOOLCHAIN=go1.21.13 GOOS=${t%/*} GOARCH=${t#*/} go vet ./...;",
			"GOTOOLCHAIN=go1.21.13 go test -count=1 ./...",
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

func lookMake(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on PATH")
	}
	return path
}
