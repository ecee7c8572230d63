package golang

import (
	"slices"
	"strings"
	"testing"
)

// TestReadErrorsProgress: the modules the go command downloads on a
// module's first run are progress, not errors (which would make the run
// exit 1); the go command's own errors and a package's are kept.
func TestReadErrorsProgress(t *testing.T) {
	stderr := strings.Join([]string{
		"go: downloading golang.org/x/sys v0.30.0",
		"go: finding module for package example.com/missing",
		"go: example.com/m/a imports example.com/missing: cannot find module providing package example.com/missing",
		"# example.com/m/b",
		"vet: b/b.go:3:2: undefined: x",
	}, "\n")
	b := newBuild("linux")
	b.readErrors(strings.NewReader(stderr))
	wantGeneral := []string{"go: example.com/m/a imports example.com/missing: cannot find module providing package example.com/missing"}
	if !slices.Equal(b.general, wantGeneral) {
		t.Errorf("general errors: %q, want %q", b.general, wantGeneral)
	}
	if got := b.failed["example.com/m/b"]; got != "vet: b/b.go:3:2: undefined: x" {
		t.Errorf("package b's error: %q", got)
	}
}
