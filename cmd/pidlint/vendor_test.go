package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pidlint/pidlint"
)

// offlineEnv makes the go command work from the module cache alone, as in
// an air-gapped CI job: nothing can be fetched, go.mod may be updated.
var offlineEnv = []string{"GOFLAGS=-mod=mod", "GOPROXY=off"}

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

// TestVendorSafeprobe runs pidlint -vendor-safeprobe -fix on a module
// that does not depend on pidlint, with nothing to download: the copy
// is written, the fix calls it, and the module builds and lints clean.
// Re-running keeps an up-to-date copy, updates an older one, and refuses
// to overwrite a local edit.
func TestVendorSafeprobe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and runs the go command")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := writeModule(t, daemonModule)
	vendored := filepath.Join(dir, "internal", "safeprobe")
	const importPath = "example.com/daemon/internal/safeprobe"

	r := mustRun(t, 0, dir, offlineEnv, bin, "-vendor-safeprobe=internal/safeprobe", "-fix", "./...")
	if !strings.Contains(r.stderr, "wrote safeprobe") || !strings.Contains(r.stderr, "fixes call "+importPath) {
		t.Errorf("stderr does not say what was vendored:\n%s", r.stderr)
	}
	want := embeddedWithHeader(t)
	if got := readDir(t, vendored); !maps.Equal(got, want) {
		t.Fatalf("vendored files %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	gomod := readFile(t, filepath.Join(dir, "go.mod"))
	if !strings.Contains(gomod, "golang.org/x/sys") || strings.Contains(gomod, "pidlint") {
		t.Errorf("go.mod should require golang.org/x/sys and not pidlint:\n%s", gomod)
	}
	if src := readFile(t, filepath.Join(dir, "alive.go")); !strings.Contains(src, `"`+importPath+`"`) || !strings.Contains(src, "safeprobe.Alive(pid)") {
		t.Errorf("the fix does not call the vendored copy:\n%s", src)
	}
	mustRun(t, 0, dir, offlineEnv, "go", "build", "./...")
	mustRun(t, 0, dir, offlineEnv, "go", "vet", "./...")
	if r := run(t, dir, offlineEnv, "go", "mod", "tidy", "-diff"); r.code != 0 {
		t.Errorf("go.mod is not tidy after -vendor-safeprobe:\n%s%s", r.stdout, r.stderr)
	}
	checkGofmt(t, dir)
	// The copy is recorded in pidlint.conf: later runs fix with it and
	// -strict does not report its own probes.
	if conf := readFile(t, filepath.Join(dir, "pidlint.conf")); !strings.Contains(conf, `safeprobe = "`+importPath+`"`) {
		t.Errorf("pidlint.conf does not record the copy:\n%s", conf)
	}
	mustRun(t, 0, dir, offlineEnv, bin, "-strict", "./...")
	writeFile(t, filepath.Join(dir, "more.go"), "package main\n\nimport \"syscall\"\n\nfunc up(pid int) bool { return syscall.Kill(pid, 0) == nil }\n")
	mustRun(t, 0, dir, offlineEnv, bin, "-fix", "./...")
	if src := readFile(t, filepath.Join(dir, "more.go")); !strings.Contains(src, `"`+importPath+`"`) {
		t.Errorf("a later -fix does not call the vendored copy:\n%s", src)
	}
	mustRun(t, 0, dir, offlineEnv, "go", "build", "./...")

	// Again: nothing changes.
	r = mustRun(t, 0, dir, offlineEnv, bin, "-vendor-safeprobe=internal/safeprobe", "./...")
	if !strings.Contains(r.stderr, "internal/safeprobe is up to date") {
		t.Errorf("a second run does not say the copy is up to date:\n%s", r.stderr)
	}

	// An older copy: a file whose content an older pidlint wrote, and a
	// file safeprobe no longer has, both in its manifest.
	m := readManifest(t, vendored)
	older := filepath.Join(vendored, "probe.go")
	writeFile(t, older, readFile(t, older)+"\n// an older version\n")
	writeFile(t, filepath.Join(vendored, "retired.go"), "package safeprobe\n")
	m.Version = "v0.0.1"
	m.Files["probe.go"] = checksum([]byte(readFile(t, older)))
	m.Files["retired.go"] = checksum([]byte("package safeprobe\n"))
	writeManifest(t, vendored, m)
	r = mustRun(t, 0, dir, offlineEnv, bin, "-vendor-safeprobe=internal/safeprobe", "./...")
	if !strings.Contains(r.stderr, "updated safeprobe") {
		t.Errorf("stderr does not say the copy was updated:\n%s", r.stderr)
	}
	if got := readDir(t, vendored); !maps.Equal(got, want) {
		t.Errorf("after the update: files %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}

	// A local edit: refused, named, and kept.
	edited := readFile(t, older) + "\n// a local change\n"
	writeFile(t, older, edited)
	r = mustRun(t, 1, dir, offlineEnv, bin, "-vendor-safeprobe=internal/safeprobe", "-fix", "./...")
	if !strings.Contains(r.stderr, "internal/safeprobe/probe.go has local edits") {
		t.Errorf("the refusal does not name the edited file:\n%s", r.stderr)
	}
	if readFile(t, older) != edited {
		t.Errorf("the edited file was overwritten")
	}
}

// TestVendorSafeprobeGo121 vendors safeprobe into a module at go 1.21,
// which requires nothing: the go line stays exactly as it was, with no
// toolchain line, go.mod requires golang.org/x/sys at safeprobe's version
// and is tidy, and the module builds and vets clean at go 1.21 (the
// compiler refuses newer language features, go vet newer standard library
// APIs).
func TestVendorSafeprobeGo121(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and runs the go command")
	}
	t.Parallel()
	bin := pidlintBin(t)
	files := maps.Clone(daemonModule)
	files["go.mod"] = "module example.com/daemon\n\ngo 1.21\n"
	dir := writeModule(t, files)
	mustRun(t, 0, dir, offlineEnv, bin, "-vendor-safeprobe=internal/safeprobe", "-fix", "./...")
	gomod := readFile(t, filepath.Join(dir, "go.mod"))
	want := "module example.com/daemon\n\ngo 1.21\n\nrequire golang.org/x/sys " + pidlint.Requires("golang.org/x/sys") + "\n"
	if gomod != want {
		t.Errorf("go.mod after -vendor-safeprobe:\n%s\nwant:\n%s", gomod, want)
	}
	if src := readFile(t, filepath.Join(dir, "alive.go")); !strings.Contains(src, "safeprobe.Alive(pid)") {
		t.Errorf("the fix does not call the vendored copy:\n%s", src)
	}
	mustRun(t, 0, dir, offlineEnv, "go", "build", "./...")
	mustRun(t, 0, dir, offlineEnv, "go", "vet", "./...")
	if r := run(t, dir, offlineEnv, "go", "mod", "tidy", "-diff"); r.code != 0 {
		t.Errorf("go.mod is not tidy after -vendor-safeprobe:\n%s%s", r.stdout, r.stderr)
	}
	if gomod := readFile(t, filepath.Join(dir, "go.mod")); gomod != want {
		t.Errorf("go.mod after go build, go vet and go mod tidy -diff:\n%s", gomod)
	}
}

// embeddedWithHeader is what -vendor-safeprobe writes: each embedded
// safeprobe file under a generated-code header.
func embeddedWithHeader(t *testing.T) map[string]string {
	t.Helper()
	files, err := pidlint.SafeprobeSources()
	if err != nil {
		t.Fatal(err)
	}
	want := make(map[string]string)
	for name, src := range files {
		want[name] = "// Code generated by pidlint -vendor-safeprobe from github.com/pidlint/pidlint/safeprobe (devel); DO NOT EDIT.\n\n" + string(src)
	}
	return want
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

// vendorManifest is the file in which -vendor-safeprobe records its copy.
const vendorManifest = "pidlint-vendor.json"

// manifest is what the tests read of that file.
type manifest struct {
	Comment string            `json:"comment"`
	Source  string            `json:"source"`
	Version string            `json:"version"`
	Files   map[string]string `json:"files"`
}

func checksum(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func readManifest(t *testing.T, dir string) *manifest {
	t.Helper()
	var m manifest
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, vendorManifest))), &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

func writeManifest(t *testing.T, dir string, m *manifest) {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, vendorManifest), string(b))
}

// TestVendorSafeprobeNoSys runs -vendor-safeprobe where golang.org/x/sys
// can be neither found nor fetched: a clear error naming the module and
// the command that adds it, and nothing written.
func TestVendorSafeprobeNoSys(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and runs the go command")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := writeModule(t, daemonModule)
	env := []string{"GOPROXY=off", "GOFLAGS=-mod=mod -modcacherw", "GOMODCACHE=" + t.TempDir()}
	r := mustRun(t, exitError, dir, env, bin, "-vendor-safeprobe=internal/safeprobe", "-fix", "./...")
	want := "safeprobe imports golang.org/x/sys " + pidlint.Requires("golang.org/x/sys") + " or later, which go.mod does not require"
	if !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "go get golang.org/x/sys@") {
		t.Errorf("stderr does not say what is missing and how to add it:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "internal")); !os.IsNotExist(err) {
		t.Errorf("the failed run wrote internal/: %v", err)
	}
	if readFile(t, filepath.Join(dir, "alive.go")) != daemonModule["alive.go"] {
		t.Errorf("the failed run changed alive.go")
	}
}

// TestVendorSafeprobeVendorDir vendors safeprobe into a module that
// vendors its dependencies: afterwards the tree builds with -mod=vendor,
// vendor/modules.txt lists golang.org/x/sys, and go.mod is tidy.
func TestVendorSafeprobeVendorDir(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and runs the go command")
	}
	t.Parallel()
	bin := pidlintBin(t)
	files := maps.Clone(daemonModule)
	files["go.mod"] = "module example.com/daemon\n\ngo 1.26.0\n\nrequire golang.org/x/sync " + rootRequires(t, "golang.org/x/sync") + "\n"
	files["group.go"] = "package main\n\nimport \"golang.org/x/sync/errgroup\"\n\nvar _ errgroup.Group\n"
	dir := writeModule(t, files)
	offline := []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}
	mustRun(t, 0, dir, offline, "go", "mod", "tidy")
	mustRun(t, 0, dir, offline, "go", "mod", "vendor")

	// The go command now builds from vendor/, as the user's does.
	vendorMode := []string{"GOPROXY=off", "GOFLAGS="}
	mustRun(t, 0, dir, vendorMode, bin, "-vendor-safeprobe=internal/safeprobe", "-fix", "./...")
	mustRun(t, 0, dir, vendorMode, "go", "build", "-mod=vendor", "./...")
	mustRun(t, 0, dir, vendorMode, "go", "vet", "./...")
	if modules := readFile(t, filepath.Join(dir, "vendor", "modules.txt")); !strings.Contains(modules, "\ngolang.org/x/sys/unix\n") {
		t.Errorf("vendor/modules.txt does not list golang.org/x/sys/unix:\n%s", modules)
	}
	if r := run(t, dir, offline, "go", "mod", "tidy", "-diff"); r.code != 0 {
		t.Errorf("go.mod is not tidy after -vendor-safeprobe:\n%s%s", r.stdout, r.stderr)
	}
	if entries, _ := os.ReadDir(dir); slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), ".pidlint-") }) {
		t.Errorf("a temporary directory is left in the module")
	}
	mustRun(t, 0, dir, vendorMode, bin, "-strict", "./...")
}
