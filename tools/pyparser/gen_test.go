package pyparser

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// committed is the generated parser as the repository holds it.
const committed = "../../internal/frontend/python/pyparse/internal/tsmodule/module_gen.go"

// TestGenerated regenerates the parser with gen.sh and compares it byte
// for byte with the committed file, so that the file is what its recipe
// makes from the pinned sources. Where the C toolchain is missing it
// skips, unless CI is set: CI installs it (.ci/run).
func TestGenerated(t *testing.T) {
	for _, tool := range []string{"clang", "wasm-ld", "wasm-opt"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipOrFail(t, tool+" is not installed (apt-get install clang lld wasi-libc libclang-rt-dev-wasm32 binaryen)")
		}
	}
	if _, err := os.Stat("/usr/include/wasm32-wasi/stdlib.h"); err != nil {
		skipOrFail(t, "wasi-libc is not installed (apt-get install wasi-libc)")
	}
	out := filepath.Join(t.TempDir(), "module_gen.go")
	cmd := exec.Command("sh", "gen.sh", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.sh: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("gen.sh makes a parser that differs from %s (%d bytes, committed %d): run tools/pyparser/gen.sh and commit the result", committed, len(got), len(want))
	}
	notice, _ := os.ReadFile(filepath.Join(filepath.Dir(out), "NOTICE"))
	if old, _ := os.ReadFile(filepath.Join(filepath.Dir(committed), "NOTICE")); len(notice) == 0 || !bytes.Equal(notice, old) {
		t.Errorf("gen.sh writes a NOTICE that differs from the committed one: run tools/pyparser/gen.sh and commit the result")
	}
}

func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}
