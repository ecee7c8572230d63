package main

import (
	"os/exec"
	"strings"
	"testing"
)

// cgoModule has probes in a file that imports "C": one whose fix maps
// back to the user's file, and one whose call holds a C name cgo
// rewrites, whose fix cannot be placed.
var cgoModule = map[string]string{
	"go.mod": "module example.com/cgomod\n\ngo 1.22\n",
	"c.go": `package cgomod

// #include <unistd.h>
import "C"

import "syscall"

// Alive reports whether pid runs.
func Alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// SelfAlive asks about this process, by its PID from C.
func SelfAlive() bool { return syscall.Kill(int(C.getpid()), 0) == nil }
`,
}

// TestCgoFixes runs pidlint on a package with a cgo file, on both routes
// (go vet, and in process with an empty build cache): both findings are
// reported, the fix of the first is placed in the user's file and builds,
// the second's is dropped with one line, and the run goes on.
func TestCgoFixes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and runs cgo")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler for cgo")
	}
	t.Parallel()
	bin := pidlintBin(t)
	for _, route := range []struct {
		name string
		env  []string
	}{{"vet", nil}, {"in process", []string{"GOCACHE=" + t.TempDir()}}} {
		t.Run(route.name, func(t *testing.T) {
			dir := writeModule(t, cgoModule)
			env := append([]string{"CGO_ENABLED=1", "GOFLAGS=-mod=mod"}, route.env...)
			r := mustRun(t, exitFindings, dir, env, bin, "-goos=host", "-diff", "./...")
			if !strings.Contains(r.stdout, "+func Alive(pid int) bool { return safeprobe.Alive(pid) }") ||
				!strings.Contains(r.stdout, "+import \"github.com/pidlint/pidlint/safeprobe\"") {
				t.Errorf("-diff does not place the fix in c.go:\n%s", r.stdout)
			}
			if strings.Contains(r.stdout, "SelfAlive() bool { return safeprobe") {
				t.Errorf("-diff rewrites the call cgo rewrote:\n%s", r.stdout)
			}
			if n := strings.Count(r.stderr, `fix "Use safeprobe.Alive" dropped`); n != 1 || !strings.Contains(r.stderr, "c.go:12:") {
				t.Errorf("want one line dropping the fix at c.go:12, got:\n%s", r.stderr)
			}
			r = mustRun(t, exitFindings, dir, env, bin, "-goos=host", "./...")
			if got := textFindings(t, dir, r.stderr); len(got) != 2 {
				t.Errorf("findings %v, want both probes", got)
			}
		})
	}
}

// TestVetRouteFromSource runs pidlint where go vet cannot type-check a
// valid package from its imports' export data (x/tools since v0.50
// writes an interface's unexported method under the package of a defined
// type over it): the package is analyzed from source, with one line
// saying so, and its finding is reported.
func TestVetRouteFromSource(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/sealedmod\n\ngo 1.22\n",
		"sealed/sealed.go": `package sealed

// Target is implemented only in this package.
type Target interface {
	Name() string
	sealedTarget()
}

type impl struct{}

func (impl) Name() string  { return "impl" }
func (impl) sealedTarget() {}

// New returns a Target.
func New() Target { return impl{} }

// Use names t.
func Use(t Target) string { return t.Name() }
`,
		"view/view.go": `package view

import "example.com/sealedmod/sealed"

// Target is sealed's Target under this package's name.
type Target sealed.Target

// Get returns a Target.
func Get() Target { return sealed.New() }
`,
		"user/user.go": `package user

import (
	"syscall"

	"example.com/sealedmod/sealed"
	"example.com/sealedmod/view"
)

// Name names view's target.
func Name() string { return sealed.Use(view.Get()) }

// Alive reports whether pid runs.
func Alive(pid int) bool { return syscall.Kill(pid, 0) == nil }
`,
	})
	mustRun(t, 0, dir, nil, "go", "build", "./...")
	r := mustRun(t, exitFindings, dir, nil, bin, "-goos=host", "./...")
	if got := textFindings(t, dir, r.stderr); len(got) != 1 || got[0] != (want{"user/user.go", 14, "PL001"}) {
		t.Errorf("findings %v, want user/user.go:14 PL001\n%s", got, r.stderr)
	}
	if !strings.Contains(r.stderr, "pidlint: example.com/sealedmod/user: go vet could not type-check it from its imports' export data; analyzed from source instead") {
		t.Errorf("no line saying the package was analyzed from source:\n%s", r.stderr)
	}
}
