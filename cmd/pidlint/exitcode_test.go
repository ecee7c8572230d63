package main

import (
	"maps"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/frontend/golang"
)

// Modules for the exit-code table: one without findings, one with a
// finding -fix fixes (PL001) and one it cannot (PL005), one that does not
// type-check.
var (
	cleanModule = map[string]string{
		"go.mod": "module example.com/clean\n\ngo 1.26.0\n",
		"a.go":   "package a\n\nfunc Alive(pid int) bool { return pid > 0 }\n",
	}
	mixedModule = map[string]string{
		"go.mod": "module example.com/mixed\n\ngo 1.26.0\n",
		"kill.go": `package mixed

import "syscall"

func Alive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
`,
		"shell.go": `package mixed

import (
	"os/exec"
	"strconv"
)

func AliveByShell(pid int) bool {
	return exec.Command("kill", "-0", strconv.Itoa(pid)).Run() == nil
}
`,
	}
	brokenModule = map[string]string{
		"go.mod": "module example.com/broken\n\ngo 1.26.0\n",
		"a.go":   "package a\n\nfunc Alive(pid int) bool { return pid + \"\" }\n",
	}
)

// TestExitCodes runs the binary in every mode on modules outside the
// repository, offline, and checks the one exit-code table: 0 clean, 3
// findings (with -fix: findings left), 1 error, 2 usage.
func TestExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes modules")
	}
	t.Parallel()
	bin := pidlintBin(t)
	emptyBaseline := `{"pidlint_baseline": 1, "findings": []}`
	modes := [][]string{
		{},
		{"-json"},
		{"-format=text"},
		{"-format=sarif"},
		{"-format=github"},
		{"-diff"},
		{"-fix"},
		{"-baseline=empty.baseline"},
	}
	for _, m := range []struct {
		name  string
		files map[string]string
		want  int
	}{
		{"clean", cleanModule, exitClean},
		{"findings", mixedModule, exitFindings},
		{"broken", brokenModule, exitError},
	} {
		for _, mode := range modes {
			files := maps.Clone(m.files)
			files["empty.baseline"] = emptyBaseline
			dir := writeModule(t, files)
			args := append(mode, "./...")
			r := run(t, dir, offlineEnv, bin, args...)
			if r.code != m.want {
				t.Errorf("%s module: pidlint %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", m.name, strings.Join(args, " "), r.code, m.want, r.stdout, r.stderr)
			}
		}
	}

	dir := writeModule(t, cleanModule)
	for _, args := range [][]string{
		{"-disable=PL009", "./..."},
		{"-nosuchflag", "./..."},
		{"-json", "-fix", "./..."},
		{},
	} {
		r := mustRun(t, exitUsage, dir, offlineEnv, bin, args...)
		if !regexp.MustCompile(`^pidlint: [^\n]+ \(pidlint -help for more\)\n$`).MatchString(r.stderr) || r.stdout != "" {
			t.Errorf("pidlint %s: want one line ending in (pidlint -help for more), got stdout %q, stderr %q", strings.Join(args, " "), r.stdout, r.stderr)
		}
	}
	if r := mustRun(t, exitUsage, dir, offlineEnv, bin, "-disable=PL009", "./..."); !strings.Contains(r.stderr, "-disable") || !strings.Contains(r.stderr, "PL009") {
		t.Errorf("the usage error does not name the flag and value: %q", r.stderr)
	}
}

// TestFixSummary checks that -fix says what it fixed and lists what it
// could not, exits 3 while findings remain and 0 once none do, and that
// the next run reports exactly the finding listed.
func TestFixSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := writeModule(t, mixedModule)
	r := mustRun(t, exitFindings, dir, offlineEnv, bin, "-fix", "./...")
	// The finding left is named as go vet names files, relative to the
	// directory the run works in.
	if !strings.Contains(r.stderr, "pidlint: fixed 1 finding in 1 file; 1 needs a hand:\nshell.go:9:9: PL005: ") {
		t.Errorf("-fix summary:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "the fixes import github.com/pidlint/pidlint/safeprobe: run go mod tidy, or vendor a copy") {
		t.Errorf("-fix does not say how the module gets safeprobe:\n%s", r.stderr)
	}
	if src := readFile(t, filepath.Join(dir, "kill.go")); !strings.Contains(src, "safeprobe.Alive(pid)") || strings.Contains(src, `"syscall"`) {
		t.Errorf("kill.go after -fix:\n%s", src)
	}
	// The module gets safeprobe from this checkout (the replace way).
	mustRun(t, 0, dir, offlineEnv, "go", "mod", "edit", "-require=github.com/pidlint/pidlint/safeprobe@v0.0.0", "-replace=github.com/pidlint/pidlint/safeprobe="+filepath.Join(repoRoot, "safeprobe"))
	r = mustRun(t, exitFindings, dir, offlineEnv, bin, "-goos=host", "./...")
	if got := textFindings(t, dir, r.stderr); len(got) != 1 || got[0] != (want{"shell.go", 9, "PL005"}) {
		t.Errorf("after -fix: findings %v, want the one listed", got)
	}

	// Nothing left to fix: exit 0.
	writeFile(t, filepath.Join(dir, "shell.go"), "package mixed\n")
	writeFile(t, filepath.Join(dir, "kill.go"), mixedModule["kill.go"])
	r = mustRun(t, exitClean, dir, offlineEnv, bin, "-fix", "./...")
	if !strings.Contains(r.stderr, "pidlint: fixed 1 finding in 1 file\n") || strings.Contains(r.stderr, "need") {
		t.Errorf("-fix with everything fixable:\n%s", r.stderr)
	}
}

// TestNoModule checks a directory in no module. With no Go file there
// is nothing for Go to do (-languages=go: Python's run is
// TestPythonNoModule's), said in one line, exit 0, and no go command
// is needed (a Python repository's runner may have none); Go files there
// are one line saying they are not checked, exit 1; an import path still
// works; and a pattern naming no directory is an error while the others
// are checked.
func TestNoModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tools", "daemon.py"), "import os\n")
	r := mustRun(t, exitClean, dir, []string{"PATH=" + t.TempDir()}, bin, "-languages=go", "./...")
	if r.stderr != "pidlint: nothing to check: no Go files in ./...\n" || r.stdout != "" {
		t.Errorf("no Go file, no go command: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	writeFile(t, filepath.Join(dir, "a.go"), "package a\n")
	env := []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"}
	r = mustRun(t, exitError, dir, env, bin, "./...")
	if r.stderr != "pidlint: "+golang.ErrNoModule.Error()+"\n" {
		t.Errorf("Go files outside a module: %q", r.stderr)
	}
	mustRun(t, exitClean, dir, []string{"GOPROXY=off", "GOWORK=off"}, bin, "-goos=host", "errors")

	mod := writeModule(t, mixedModule)
	r = mustRun(t, exitError, mod, offlineEnv, bin, "-goos=host", "./...", "./nosuch")
	if got := textFindings(t, mod, r.stderr); len(got) != 2 || !strings.Contains(r.stderr, "pidlint: pattern ./nosuch: no such directory\n") {
		t.Errorf("./... ./nosuch: findings %v, want both of the module's, and the error:\n%s", got, r.stderr)
	}
}
