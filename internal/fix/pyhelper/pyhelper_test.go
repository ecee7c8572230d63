package pyhelper

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestUnittest writes pidprobe.py as users get it and runs its tests
// there under CPython, against real processes. CI installs python3; a
// machine without it skips.
func TestUnittest(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is needed in CI: .ci/run installs it")
		}
		t.Skip("no python3")
	}
	root := t.TempDir()
	if _, err := Write(root, "tools"); err != nil {
		t.Fatal(err)
	}
	tests, err := os.ReadFile("test_pidprobe.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "tools")
	if err := os.WriteFile(filepath.Join(dir, "test_pidprobe.py"), tests, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-W", "error::ResourceWarning", "-m", "unittest", "-v", "test_pidprobe")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 -m unittest: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "\nOK") {
		t.Errorf("python3 -m unittest did not pass:\n%s", out)
	}
}

// TestWrite checks what Write writes, keeps, updates and refuses.
func TestWrite(t *testing.T) {
	root := t.TempDir()
	name := filepath.Join(root, "tools", Name)
	for _, want := range []string{"wrote", "kept"} {
		if got, err := Write(root, "tools"); err != nil || got != want {
			t.Fatalf("Write: %q, %v; want %q", got, err, want)
		}
	}
	if b, _ := os.ReadFile(name); string(b) != string(Contents()) {
		t.Fatalf("%s is not the module with its header", name)
	}
	// An older copy of pidlint's is updated.
	if err := os.WriteFile(name, []byte(header+"old = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Write(root, "tools"); err != nil || got != "updated" {
		t.Fatalf("Write over an old copy: %q, %v", got, err)
	}
	// A file pidlint did not write is kept, and the run told.
	mine := []byte("def alive(pid): return True\n")
	if err := os.WriteFile(name, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(root, "tools"); err == nil || !strings.Contains(err.Error(), "not written by pidlint") {
		t.Errorf("Write over the user's own pidprobe.py: %v", err)
	}
	if b, _ := os.ReadFile(name); string(b) != string(mine) {
		t.Errorf("the user's pidprobe.py was changed")
	}
	for _, rel := range []string{"", "..", "../elsewhere", "/tmp", "a/../../b"} {
		if _, err := Write(root, rel); err == nil || !strings.Contains(err.Error(), "inside the current one") {
			t.Errorf("Write(%q): %v, want a refusal", rel, err)
		}
	}
	if runtime.GOOS == "windows" {
		return
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(root, "link"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Write through a link out of the tree: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, Name)); err == nil {
		t.Errorf("Write followed the link out of the tree")
	}
}
