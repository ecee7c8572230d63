package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/version"
)

// TestHelp checks that -help, -h and --help print the help screen on
// standard output and exit 0 (internal/config checks what it says).
func TestHelp(t *testing.T) {
	for _, arg := range []string{"-help", "-h", "--help"} {
		r := runDriver(t, t.TempDir(), arg)
		if r.code != exitClean || r.stderr != "" || !strings.HasPrefix(r.stdout, "pidlint reports ") {
			t.Fatalf("pidlint %s: exit %d, stderr %q, stdout %.100q", arg, r.code, r.stderr, r.stdout)
		}
	}
}

// TestVersion checks -version and -V: the module version on standard
// output, exit 0, no packages needed.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"-version", "-V", "--version", "-V=true"} {
		r := runDriver(t, t.TempDir(), arg)
		if r.code != exitClean || r.stdout != version.String()+"\n" || !strings.HasPrefix(r.stdout, "pidlint "+version.Module()) || r.stderr != "" {
			t.Errorf("pidlint %s: exit %d, stdout %q, stderr %q", arg, r.code, r.stdout, r.stderr)
		}
	}
}

// TestVersionVCS builds pidlint in its git checkout with VCS stamping and
// checks that -version names the commit and its time, as go version -m
// shows them.
func TestVersionVCS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint")
	}
	t.Parallel()
	head, err := exec.Command("git", "-C", repoRoot, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	// The go command looks for a .git directory: in a linked work tree
	// (git worktree add), where .git is a file, it stamps nothing.
	if fi, err := os.Stat(filepath.Join(repoRoot, ".git")); err == nil && !fi.IsDir() {
		t.Skip("a linked git work tree: the go command stamps no VCS information here")
	}
	bin := filepath.Join(t.TempDir(), "pidlint")
	mustRun(t, 0, ".", nil, "go", "build", "-buildvcs=true", "-o", bin, ".")
	r := mustRun(t, 0, ".", nil, bin, "-version")
	for _, want := range []string{"pidlint ", "vcs.revision=" + strings.TrimSpace(string(head)), "vcs.time=20", "vcs.modified="} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("pidlint -version = %q, want %q in it", r.stdout, want)
		}
	}
	if strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("pidlint -version printed %d lines, want one", strings.Count(r.stdout, "\n"))
	}
}
