package main

import (
	"slices"
	"strings"
	"testing"
)

// configModule has probes of three rules, one in a directory the config
// file excludes, and the file at its root.
var configModule = map[string]string{
	"go.mod": "module example.com/conf\n\ngo 1.22\n",
	"pidlint.conf": `# settings for every run in this module
disable = ["shell-probe"]
exclude = ["gen"]
`,
	"p/p.go": `package p

import (
	"os/exec"
	"strconv"
	"syscall"
)

func Up(pid int) bool { return syscall.Kill(pid, 0) == nil }

func Shell(pid int) bool { return exec.Command("kill", "-0", strconv.Itoa(pid)).Run() == nil }
`,
	"gen/g.go": `package gen

import "syscall"

func Up(pid int) bool { return syscall.Kill(pid, 0) == nil }
`,
}

// TestConfigFile runs pidlint under a config file: found from a
// subdirectory, its rules disabled and its paths excluded; a flag
// overrides it; an unknown key is a usage error naming the file and line.
func TestConfigFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := writeModule(t, configModule)
	r := mustRun(t, exitFindings, dir+"/p", nil, bin, "-goos=host", "../...")
	if got, want := textFindings(t, dir, r.stderr), []want{{"p/p.go", 9, "PL001"}}; len(got) != 1 || got[0].line != want[0].line || got[0].rule != want[0].rule {
		t.Errorf("under pidlint.conf: %v, want %v\n%s", got, want, r.stderr)
	}
	r = mustRun(t, exitFindings, dir, nil, bin, "-goos=host", "-disable=kill-zero", "./...")
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, []want{{"p/p.go", 11, "PL005"}}) {
		t.Errorf("-disable over pidlint.conf: %v, want only PL005", got)
	}

	// The file's languages select the front ends, as -languages does.
	writeFile(t, dir+"/pidlint.conf", "languages = [\"shell\"]\n")
	r = mustRun(t, exitClean, dir+"/p", nil, bin, "./...")
	if r.stderr != "pidlint: nothing to check: no shell files in ./...\n" {
		t.Errorf("languages = [\"shell\"] in a module of Go files: %q", r.stderr)
	}
	writeFile(t, dir+"/pidlint.conf", "languages = [\"go\"]\n")
	r = mustRun(t, exitFindings, dir, nil, bin, "-goos=host", "./...")
	if got := textFindings(t, dir, r.stderr); len(got) != 3 {
		t.Errorf("languages = [\"go\"]: %v, want the module's three findings", got)
	}

	writeFile(t, dir+"/pidlint.conf", "disable = [\"shell-probe\"]\nexlcude = [\"gen\"]\n")
	r = mustRun(t, exitUsage, dir+"/p", nil, bin, "./...")
	if lines := strings.Split(strings.TrimSpace(r.stderr), "\n"); len(lines) != 1 || !strings.Contains(r.stderr, "pidlint.conf:2: unknown key \"exlcude\"") {
		t.Errorf("an unknown key: want one line naming pidlint.conf:2, got:\n%s", r.stderr)
	}
}
