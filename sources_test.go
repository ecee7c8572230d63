package pidlint

import (
	"bytes"
	"encoding/json"
	goversion "go/version"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSafeprobeSources checks that the embedded sources are exactly the
// files safeprobe builds from on any OS (tests and testdata left out), and
// that each holds what is on disk.
func TestSafeprobeSources(t *testing.T) {
	files, err := SafeprobeSources()
	if err != nil {
		t.Fatal(err)
	}
	// GoFiles and IgnoredGoFiles together are every file of the package
	// but the tests for this OS, whatever the OS go list runs for.
	list := exec.Command("go", "list", "-f", `{{join .GoFiles "\n"}}{{"\n"}}{{join .IgnoredGoFiles "\n"}}`, ".")
	list.Dir = "safeprobe"
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list in safeprobe/: %v", err)
	}
	var want []string
	for name := range strings.FieldsSeq(string(out)) {
		if !strings.HasSuffix(name, "_test.go") {
			want = append(want, name)
		}
	}
	slices.Sort(want)
	var got []string
	for name := range files {
		got = append(got, name)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("embedded safeprobe files:\n%v\nwant (go list):\n%v", got, want)
	}
	for name, b := range files {
		disk, err := os.ReadFile(filepath.Join("safeprobe", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, disk) {
			t.Errorf("embedded %s differs from safeprobe/%s", name, name)
		}
	}
}

// TestGoMod checks that GoVersion and Requires read safeprobe/go.mod as
// it is on disk.
func TestGoMod(t *testing.T) {
	edit := exec.Command("go", "mod", "edit", "-json")
	edit.Dir = "safeprobe"
	out, err := edit.Output()
	if err != nil {
		t.Fatal(err)
	}
	var mod struct {
		Go      string
		Require []struct{ Path, Version string }
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	if got := GoVersion(); got != mod.Go || got == "" {
		t.Errorf("GoVersion() = %q, go.mod says %q", got, mod.Go)
	}
	if len(mod.Require) == 0 {
		t.Fatal("safeprobe/go.mod requires nothing: the test would prove nothing")
	}
	for _, r := range mod.Require {
		if got := Requires(r.Path); got != r.Version {
			t.Errorf("Requires(%q) = %q, go.mod says %q", r.Path, got, r.Version)
		}
	}
	if got := Requires("example.com/none"); got != "" {
		t.Errorf("Requires of a module go.mod does not name = %q", got)
	}
}

// TestSafeprobeArchive checks that safeprobe.txtar is what go generate
// writes now: a change to safeprobe/ without go generate fails here.
func TestSafeprobeArchive(t *testing.T) {
	t.Parallel()
	fresh := filepath.Join(t.TempDir(), "safeprobe.txtar")
	if out, err := exec.Command("go", "run", "gen_safeprobe.go", "-o", fresh).CombinedOutput(); err != nil {
		t.Fatalf("go run gen_safeprobe.go: %v\n%s", err, out)
	}
	want, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("safeprobe.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("safeprobe.txtar is stale: run go generate in the repository's root")
	}
}

// oldestGo is the go line a module may have and still build safeprobe,
// as the README promises.
const oldestGo = "1.21"

// TestSafeprobeModule checks that safeprobe is a module of its own whose
// go line is no newer than oldestGo, so that requiring it does not raise
// a module's go line, and that it vets clean at that line for the OSes it
// answers for (go vet's stdversion reports a standard library API newer
// than the go line, the compiler a newer language feature).
func TestSafeprobeModule(t *testing.T) {
	t.Parallel()
	gomod, err := os.ReadFile(filepath.Join("safeprobe", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(gomod), "module github.com/pidlint/pidlint/safeprobe\n") {
		t.Errorf("safeprobe/go.mod does not declare module github.com/pidlint/pidlint/safeprobe:\n%s", gomod)
	}
	if v := GoVersion(); v == "" || goversion.Compare("go"+v, "go"+oldestGo) > 0 {
		t.Errorf("safeprobe's go line is %q, want %s or older", v, oldestGo)
	}
	if strings.Contains(string(gomod), "\ntoolchain ") {
		t.Errorf("safeprobe/go.mod has a toolchain line: it would reach the modules that require it")
	}
	if testing.Short() {
		return
	}
	for _, goos := range []string{"linux", "windows", "darwin", "freebsd"} {
		t.Run(goos, func(t *testing.T) {
			t.Parallel()
			vet := exec.Command("go", "vet", "./...")
			vet.Dir = "safeprobe"
			vet.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "GOFLAGS=-mod=readonly", "GOWORK=off")
			if out, err := vet.CombinedOutput(); err != nil {
				t.Errorf("GOOS=%s go vet in safeprobe/: %v\n%s", goos, err, out)
			}
		})
	}
}
