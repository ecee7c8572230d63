package main

// The recipes (.github/workflows/pidlint.yml, action.yml,
// .pre-commit-hooks.yaml and docs/pidlint.mk) are run here, command by command, on a copy of
// testdata/probes standing in for the repository they check, so that they
// cannot rot silently.

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/rules"
)

func loadRecipe(t *testing.T, name string) any {
	t.Helper()
	v, err := parseYAML(readFile(t, filepath.Join(repoRoot, name)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// field returns v[key] for a map v, or fails the test.
func field[T any](t *testing.T, v any, key string) T {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("not a map: %v", v)
	}
	x, ok := m[key].(T)
	if !ok {
		var zero T
		t.Fatalf("%q: want %T, have %#v", key, zero, m[key])
	}
	return x
}

var expr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// expand replaces ${{ expressions }} by their values in ctx; an
// expression the test does not know fails it.
func expand(t *testing.T, s string, ctx map[string]string) string {
	t.Helper()
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		e := expr.FindStringSubmatch(m)[1]
		v, ok := ctx[e]
		if !ok && strings.HasPrefix(e, "steps.") && strings.Contains(e, ".outputs.") {
			return "" // an output a step did not set is empty
		}
		if !ok {
			t.Fatalf("recipe uses ${{ %s }}, which recipes_test.go does not provide", e)
		}
		return v
	})
}

// fakeGo makes a directory with a go command that stands for this
// repository's checkout: "go run ./cmd/pidlint" and "go build -o X
// ./cmd/pidlint" use the pidlint binary the tests built (go run turns a
// non-zero exit into 1, as the real one does); everything else runs the
// real go.
func fakeGo(t *testing.T, bin string) string {
	t.Helper()
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := fmt.Sprintf(`#!/bin/sh
if [ "$1" = run ] && [ "$2" = ./cmd/pidlint ]; then
	shift 2
	%[1]q "$@" || { echo "exit status $?" >&2; exit 1; }
	exit 0
fi
if [ "$1" = build ] && [ "$2" = -o ] && [ "$4" = ./cmd/pidlint ] && [ $# -eq 4 ]; then
	exec cp %[1]q "$3"
fi
exec %[2]q "$@"
`, bin, realGo)
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runStep runs a step's script as GitHub Actions runs a bash step.
func runStep(t *testing.T, script, dir string, env []string) result {
	t.Helper()
	file := filepath.Join(t.TempDir(), "step.sh")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return run(t, dir, env, "bash", "--noprofile", "--norc", "-eo", "pipefail", file)
}

func withPath(env []string, dirs ...string) []string {
	return append(env, "PATH="+strings.Join(append(dirs, os.Getenv("PATH")), string(os.PathListSeparator)))
}

// annotations returns the "file:line: title" of each ::error command.
func annotations(out string) []string {
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^::error file=([^,]+),line=(\d+),col=\d+,title=([^:]+)::`).FindAllStringSubmatch(out, -1) {
		got = append(got, m[1]+":"+m[2]+": "+m[3])
	}
	return got
}

func wantAnnotations(ws []want) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.String())
	}
	return out
}

// newProbe adds a finding to testdata/probes' b/b.go and returns it.
func newProbe(t *testing.T, dir string) want {
	t.Helper()
	name := filepath.Join(dir, "b", "b.go")
	writeFile(t, name, readFile(t, name)+"\n// Gone reports whether pid has exited.\nfunc Gone(pid int) bool { return syscall.Kill(pid, 0) != nil }\n")
	return want{"b/b.go", 29, "PL001"}
}

// commitAll makes dir a git repository with everything committed.
func commitAll(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-q", "-m", "probes"}} {
		mustRun(t, 0, dir, gitEnv, "git", args...)
	}
}

// TestWorkflowRecipe runs the pidlint steps of .github/workflows/pidlint.yml.
func TestWorkflowRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and runs the workflow's steps")
	}
	t.Parallel()
	bin := pidlintBin(t)
	goDir := fakeGo(t, bin)
	wf := loadRecipe(t, ".github/workflows/pidlint.yml")
	jobs := field[map[string]any](t, wf, "jobs")
	ran := 0
	for _, id := range slices.Sorted(maps.Keys(jobs)) {
		for i, step := range field[[]any](t, jobs[id], "steps") {
			step := step.(map[string]any)
			name := fmt.Sprintf("%s/step%d", id, i+1)
			if script, ok := step["run"].(string); ok && strings.Contains(script, "cmd/pidlint") {
				t.Run(name, func(t *testing.T) {
					ran++
					workflowRun(t, script, goDir)
				})
			}
			if step["uses"] == "./" {
				t.Run(name, func(t *testing.T) {
					ran++
					dir := copyModule(t, "probes")
					commitAll(t, dir)
					mustRun(t, 0, dir, gitEnv, "git", "update-ref", "refs/remotes/origin/main", "HEAD")
					w := newProbe(t, dir)
					mustRun(t, 0, dir, gitEnv, "git", "commit", "-q", "-am", "a new probe")
					ctx := map[string]string{"github.base_ref": "main"}
					inputs := make(map[string]string)
					for k, v := range field[map[string]any](t, step, "with") {
						inputs[k] = expand(t, v.(string), ctx)
					}
					r, _ := runAction(t, inputs, dir)
					if r.code != exitFindings {
						t.Fatalf("exit %d, want %d\n%s%s", r.code, exitFindings, r.stdout, r.stderr)
					}
					if got, want := annotations(r.stdout), wantAnnotations([]want{w}); !slices.Equal(got, want) {
						t.Errorf("annotations %v, want %v\n%s", got, want, r.stdout)
					}
				})
			}
		}
	}
	if ran < 3 {
		t.Errorf("ran %d pidlint steps of the workflow, want 3 or more", ran)
	}
}

// workflowRun runs a run: step of the workflow in a copy of
// testdata/probes.
func workflowRun(t *testing.T, script, goDir string) {
	dir := copyModule(t, "probes")
	env := withPath([]string{"RUNNER_TEMP=" + t.TempDir(), "GITHUB_WORKSPACE=" + dir}, goDir)
	r := runStep(t, script, dir, env)
	switch {
	case strings.Contains(script, "-format=github"):
		if r.code == 0 {
			t.Errorf("the step succeeds despite findings")
		}
		if got, want := annotations(r.stdout), wantAnnotations(probesFindings); !slices.Equal(got, want) {
			t.Errorf("annotations %v, want %v\n%s%s", got, want, r.stdout, r.stderr)
		}
	case strings.Contains(script, "-format=sarif"):
		if r.code != 0 {
			t.Fatalf("exit %d, want 0 (findings do not fail the SARIF step)\n%s", r.code, r.stderr)
		}
		m := regexp.MustCompile(`>\s*(\S+\.sarif)`).FindStringSubmatch(script)
		if m == nil {
			t.Fatalf("no > file.sarif in the step:\n%s", script)
		}
		checkSARIF(t, []byte(readFile(t, filepath.Join(dir, m[1]))), probesFindings)
	default:
		t.Fatalf("recipes_test.go does not know what this step should print:\n%s", script)
	}
}

// runAction runs action.yml's steps with inputs in the workspace dir and
// returns the last step's result and the action's outputs.
func runAction(t *testing.T, inputs map[string]string, dir string) (result, map[string]string) {
	t.Helper()
	action := loadRecipe(t, "action.yml")
	runs := field[map[string]any](t, action, "runs")
	if using := field[string](t, runs, "using"); using != "composite" {
		t.Fatalf("runs.using = %q", using)
	}
	temp := t.TempDir()
	ctx := map[string]string{
		"github.action_path": repoRoot,
		"github.workspace":   dir,
		"runner.temp":        temp,
	}
	declared := field[map[string]any](t, action, "inputs")
	for name, in := range declared {
		ctx["inputs."+name], _ = in.(map[string]any)["default"].(string)
	}
	for name, v := range inputs {
		if _, ok := declared[name]; !ok {
			t.Fatalf("the action has no input %q", name)
		}
		ctx["inputs."+name] = v
	}
	pathFile := filepath.Join(temp, "github_path")
	var path []string
	var r result
	outputs := make(map[string]string)
	for _, step := range field[[]any](t, runs, "steps") {
		if shell := field[string](t, step, "shell"); shell != "bash" {
			t.Fatalf("step shell %q, want bash", shell)
		}
		outFile := filepath.Join(temp, "github_output")
		os.Remove(outFile)
		env := []string{"GITHUB_PATH=" + pathFile, "GITHUB_OUTPUT=" + outFile, "RUNNER_TEMP=" + temp, "GITHUB_WORKSPACE=" + dir}
		if e, ok := step.(map[string]any)["env"].(map[string]any); ok {
			for k, v := range e {
				env = append(env, k+"="+expand(t, v.(string), ctx))
			}
		}
		wd := dir
		if w, ok := step.(map[string]any)["working-directory"].(string); ok {
			wd = expand(t, w, ctx)
		}
		r = runStep(t, expand(t, field[string](t, step, "run"), ctx), wd, withPath(env, path...))
		if b, err := os.ReadFile(pathFile); err == nil {
			path = slices.Compact(append(strings.Fields(string(b)), path...))
		}
		if b, err := os.ReadFile(outFile); err == nil {
			id, _ := step.(map[string]any)["id"].(string)
			for line := range strings.Lines(string(b)) {
				if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
					ctx["steps."+id+".outputs."+k] = v
				}
			}
		}
		if r.code != 0 {
			break
		}
	}
	for name, out := range field[map[string]any](t, action, "outputs") {
		outputs[name] = expand(t, field[string](t, out, "value"), ctx)
	}
	return r, outputs
}

// TestActionSARIF runs action.yml with format sarif.
func TestActionSARIF(t *testing.T) {
	if testing.Short() {
		t.Skip("installs pidlint and runs the action's steps")
	}
	t.Parallel()
	dir := copyModule(t, "probes")
	r, outputs := runAction(t, map[string]string{"format": "sarif"}, dir)
	if r.code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s%s", r.code, exitFindings, r.stdout, r.stderr)
	}
	file := outputs["sarif-file"]
	if file == "" {
		t.Fatalf("no sarif-file output: %v", outputs)
	}
	checkSARIF(t, []byte(readFile(t, file)), probesFindings)
}

// TestPreCommitRecipe installs the hooks of .pre-commit-hooks.yaml as
// pre-commit does for language golang (go install ./... in this
// repository) and runs each hook's command.
func TestPreCommitRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("installs pidlint and runs the hooks")
	}
	t.Parallel()
	hooks, ok := loadRecipe(t, ".pre-commit-hooks.yaml").([]any)
	if !ok || len(hooks) == 0 {
		t.Fatal(".pre-commit-hooks.yaml: want a list of hooks")
	}
	gobin := t.TempDir()
	mustRun(t, 0, repoRoot, []string{"GOBIN=" + gobin}, "go", "install", "./...")
	for _, h := range hooks {
		id := field[string](t, h, "id")
		t.Run(id, func(t *testing.T) {
			if lang := field[string](t, h, "language"); lang != "golang" {
				t.Fatalf("language %q, want golang", lang)
			}
			if pf := field[string](t, h, "pass_filenames"); pf != "false" {
				t.Fatalf("pass_filenames %q: the test passes none", pf)
			}
			// The hook runs when a file of any of pidlint's languages
			// changes: pre-commit's type tags are their names.
			var types []string
			for _, tag := range field[[]any](t, h, "types_or") {
				types = append(types, tag.(string))
			}
			for _, l := range rules.Languages {
				if !slices.Contains(types, l.Name) {
					t.Errorf("types_or %q lacks %s", types, l.Name)
				}
			}
			argv := strings.Fields(field[string](t, h, "entry"))
			for _, a := range field[[]any](t, h, "args") {
				argv = append(argv, a.(string))
			}
			bin := filepath.Join(gobin, argv[0])
			if _, err := os.Stat(bin); err != nil {
				t.Fatalf("entry %q: go install ./... installs no such command", argv[0])
			}
			dir := copyModule(t, "probes")
			if !slices.ContainsFunc(argv, func(a string) bool { return strings.HasPrefix(a, "-new-from-rev") }) {
				r := mustRun(t, exitFindings, dir, nil, bin, argv[1:]...)
				if got := textFindings(t, dir, r.stderr); !slices.Equal(got, probesFindings) {
					t.Errorf("findings %v, want %v", got, probesFindings)
				}
				return
			}
			// A new repository, before its first commit: every
			// staged line is new.
			mustRun(t, 0, dir, gitEnv, "git", "init", "-q", "-b", "main")
			mustRun(t, 0, dir, gitEnv, "git", "add", ".")
			r := mustRun(t, exitFindings, dir, nil, bin, argv[1:]...)
			if got := textFindings(t, dir, r.stderr); !slices.Equal(got, probesFindings) {
				t.Errorf("before the first commit: findings %v, want %v\n%s", got, probesFindings, r.stderr)
			}
			mustRun(t, 0, dir, nil, "rm", "-rf", ".git")

			// Changed lines: nothing before a change, the new probe
			// once it is staged.
			commitAll(t, dir)
			mustRun(t, exitClean, dir, nil, bin, argv[1:]...)
			w := newProbe(t, dir)
			mustRun(t, 0, dir, gitEnv, "git", "add", ".")
			r = mustRun(t, exitFindings, dir, nil, bin, argv[1:]...)
			if got := textFindings(t, dir, r.stderr); !slices.Equal(got, []want{w}) {
				t.Errorf("findings %v, want %v", got, []want{w})
			}
		})
	}
}

// TestMakefileRecipe runs the targets of docs/pidlint.mk, included from a
// module's Makefile, with PIDLINT set to the pidlint the tests built.
func TestMakefileRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and runs make")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := copyModule(t, "probes")
	writeFile(t, filepath.Join(dir, "Makefile"), "include "+filepath.Join(repoRoot, "docs", "pidlint.mk")+"\n")
	vars := []string{"PIDLINT=" + bin, "PIDLINT_BASE=HEAD"}
	findings := func(out string) []want {
		var lines []string
		for line := range strings.SplitSeq(out, "\n") {
			if vetLine.MatchString(line) || strings.Contains(line, ": PL0") {
				lines = append(lines, line)
			}
		}
		return textFindings(t, dir, strings.Join(lines, "\n"))
	}
	make := func(t *testing.T, wantFail bool, target string) string {
		t.Helper()
		r := run(t, dir, gitEnv, "make", append([]string{"--no-print-directory", target}, vars...)...)
		if failed := r.code != 0; failed != wantFail {
			t.Fatalf("make %s: exit %d, want failure %v\nstdout:\n%s\nstderr:\n%s", target, r.code, wantFail, r.stdout, r.stderr)
		}
		return r.stderr
	}

	if got := findings(make(t, true, "pidlint")); !slices.Equal(got, probesFindings) {
		t.Errorf("make pidlint: findings %v, want %v", got, probesFindings)
	}
	if got := findings(make(t, true, "pidlint-vet")); !slices.Equal(got, probesFindings) {
		t.Errorf("make pidlint-vet: findings %v, want %v", got, probesFindings)
	}
	commitAll(t, dir)
	make(t, false, "pidlint-changed")
	w := newProbe(t, dir)
	if got := findings(make(t, true, "pidlint-changed")); !slices.Equal(got, []want{w}) {
		t.Errorf("make pidlint-changed after a change: findings %v, want %v", got, []want{w})
	}
}
