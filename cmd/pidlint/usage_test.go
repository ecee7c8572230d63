package main

import (
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
		if r.code != exitClean || r.stdout != "pidlint "+version.Module()+"\n" || r.stderr != "" {
			t.Errorf("pidlint %s: exit %d, stdout %q, stderr %q", arg, r.code, r.stdout, r.stderr)
		}
	}
}
