package fix

import (
	"archive/zip"
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pidlint/pidlint"
	"github.com/pidlint/pidlint/internal/gocmd"
)

// daemonModule is a user's module that knows nothing of pidlint: its
// go.mod requires nothing, and it holds one probe a fix rewrites.
var daemonModule = map[string]string{
	"go.mod": "module example.com/daemon\n\ngo 1.26.0\n",
	"alive.go": `package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

func main() {
	pid, _ := strconv.Atoi(os.Args[1])
	fmt.Println(syscall.Kill(pid, 0) == nil)
}
`,
}

// writeModule writes a module with the given files (name → content) into
// a new temporary directory outside this repository and returns it.
func writeModule(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		name = filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readDir returns the Go files in dir by name; none when dir is missing.
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files := make(map[string]string)
	for _, name := range names {
		files[filepath.Base(name)] = readFile(t, name)
	}
	return files
}

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestVendorSafeprobeRefuses checks the cases -vendor-safeprobe refuses
// before writing anything, each with an error that names the problem.
func TestVendorSafeprobeRefuses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Parallel()
	for _, tc := range []struct {
		name, rel, safeprobe string
		files                map[string]string
		wantErr              string
	}{
		{name: "absolute", rel: "/tmp/safeprobe", wantErr: "want a directory relative to the module root"},
		{name: "outside", rel: "../safeprobe", wantErr: "outside the module"},
		{name: "other name", rel: "internal/probe", wantErr: "must be named safeprobe"},
		{name: "ignored dir", rel: "testdata/safeprobe", wantErr: `ignores a directory named "testdata"`},
		{name: "other safeprobe flag", rel: "internal/safeprobe", safeprobe: "example.com/other/safeprobe", wantErr: "name different packages"},
		{
			name: "foreign files", rel: "internal/safeprobe",
			files:   map[string]string{"internal/safeprobe/mine.go": "package safeprobe\n"},
			wantErr: "internal/safeprobe holds Go files pidlint did not write",
		},
		{
			name: "corrupt manifest", rel: "internal/safeprobe",
			files:   map[string]string{"internal/safeprobe/" + vendorManifest: "{not json"},
			wantErr: "internal/safeprobe/" + vendorManifest + " is corrupt",
		},
		{
			name: "manifest names a path", rel: "internal/safeprobe",
			files:   map[string]string{"internal/safeprobe/" + vendorManifest: `{"files": {"../../alive.go": "sha256:00"}}`},
			wantErr: `it lists "../../alive.go"`,
		},
		{
			name: "deleted file", rel: "internal/safeprobe",
			files:   map[string]string{"internal/safeprobe/" + vendorManifest: `{"files": {"probe.go": "sha256:00"}}`},
			wantErr: "internal/safeprobe/probe.go was deleted",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := maps.Clone(daemonModule)
			maps.Copy(files, tc.files)
			dir := writeModule(t, files)
			before := readDir(t, filepath.Join(dir, "internal", "safeprobe"))
			gomod := readFile(t, filepath.Join(dir, "go.mod"))
			_, err := vendorSafeprobe(&gocmd.Runner{Dir: dir}, tc.rel, tc.safeprobe)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("vendorSafeprobe(%q) = %v, want an error with %q", tc.rel, err, tc.wantErr)
			}
			if after := readDir(t, filepath.Join(dir, "internal", "safeprobe")); !maps.Equal(before, after) {
				t.Errorf("the refused run changed the directory")
			}
			if readFile(t, filepath.Join(dir, "go.mod")) != gomod {
				t.Errorf("the refused run changed go.mod")
			}
		})
	}

	t.Run("no module", func(t *testing.T) {
		_, err := vendorSafeprobe(&gocmd.Runner{Dir: t.TempDir()}, "internal/safeprobe", "")
		if err == nil || !strings.Contains(err.Error(), "no Go module here") {
			t.Fatalf("outside a module: %v", err)
		}
	})
}

// TestVendorSafeprobeOldGo vendors into a module whose go line is older
// than safeprobe's: the copy is written, with a note saying so and how to
// raise it.
func TestVendorSafeprobeOldGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Parallel()
	files := maps.Clone(daemonModule)
	files["go.mod"] = "module example.com/daemon\n\ngo 1.20\n\nrequire golang.org/x/sys " + pidlint.Requires("golang.org/x/sys") + "\n"
	dir := writeModule(t, files)
	v, err := vendorSafeprobe(&gocmd.Runner{Dir: dir}, "internal/safeprobe", "")
	if err != nil {
		t.Fatal(err)
	}
	want := "internal/safeprobe is written for go " + pidlint.GoVersion() + "; go.mod says go 1.20: if it does not build, raise it with go get go@" + pidlint.GoVersion()
	if !slices.Contains(v.notes, want) {
		t.Errorf("notes %q, want %q", v.notes, want)
	}
	if v.action != "wrote" || len(readDir(t, filepath.Join(dir, "internal", "safeprobe"))) == 0 {
		t.Errorf("action %q: the copy was not written", v.action)
	}
}

// TestVendorSafeprobeKeepsGoLine vendors into a module at go 1.21 from a
// proxy whose golang.org/x/sys, at safeprobe's version, declares go 1.22:
// go get would raise the go line, so the run fails saying so and leaves
// go.mod, go.sum and the directory as they were.
func TestVendorSafeprobeKeepsGoLine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	version := pidlint.Requires(sysModule)
	proxy := t.TempDir()
	vdir := filepath.Join(proxy, "golang.org", "x", "sys", "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		t.Fatal(err)
	}
	sysMod := "module golang.org/x/sys\n\ngo 1.22\n"
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	for name, data := range map[string]string{"go.mod": sysMod, "unix/unix.go": "package unix\n"} {
		w, err := zw.Create(sysModule + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		version + ".mod":  sysMod,
		version + ".info": `{"Version":"` + version + `"}`,
		version + ".zip":  zipped.String(),
		"list":            version + "\n",
	} {
		if err := os.WriteFile(filepath.Join(vdir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-mod=mod -modcacherw")
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOTOOLCHAIN", "local")

	files := maps.Clone(daemonModule)
	files["go.mod"] = "module example.com/daemon\n\ngo 1.21\n"
	dir := writeModule(t, files)
	_, err := vendorSafeprobe(&gocmd.Runner{Dir: dir}, "internal/safeprobe", "")
	if err == nil || !strings.Contains(err.Error(), `changes go.mod's go line from "1.21" to "1.22"`) {
		t.Fatalf("vendorSafeprobe = %v, want an error saying go get changes the go line", err)
	}
	if gomod := readFile(t, filepath.Join(dir, "go.mod")); gomod != files["go.mod"] {
		t.Errorf("go.mod after the refused run:\n%s", gomod)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); !os.IsNotExist(err) {
		t.Errorf("the refused run left a go.sum: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "internal")); !os.IsNotExist(err) {
		t.Errorf("the refused run wrote internal/: %v", err)
	}
}
