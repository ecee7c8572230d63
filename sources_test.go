package pidlint

import (
	"bytes"
	"encoding/json"
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
	out, err := exec.Command("go", "list", "-f", `{{join .GoFiles "\n"}}{{"\n"}}{{join .IgnoredGoFiles "\n"}}`, "./safeprobe").Output()
	if err != nil {
		t.Fatalf("go list ./safeprobe: %v", err)
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

func TestGoMod(t *testing.T) {
	out, err := exec.Command("go", "mod", "edit", "-json").Output()
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
	for _, r := range mod.Require {
		if got := Requires(r.Path); got != r.Version {
			t.Errorf("Requires(%q) = %q, go.mod says %q", r.Path, got, r.Version)
		}
	}
	if got := Requires("example.com/none"); got != "" {
		t.Errorf("Requires of a module go.mod does not name = %q", got)
	}
}
