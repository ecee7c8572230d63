package print

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/pidlint/pidlint/internal/finding"
)

// TestJSONUnits checks -json's tree: a Go finding under its package, as
// go vet keys it, with its GOOS builds; a finding of a file checked on
// its own (a shell or Python file) under its directory relative to the
// run's, as the go command names a directory, without GOOS; one outside
// the run's directory under its absolute directory.
func TestJSONUnits(t *testing.T) {
	dir := filepath.FromSlash("/src/m")
	at := func(name string) finding.Position {
		return finding.Position{File: filepath.Join(dir, filepath.FromSlash(name)), Line: 3, Column: 1}
	}
	outside := finding.Position{File: filepath.FromSlash("/elsewhere/bin/x.sh"), Line: 1, Column: 1}
	rep := &finding.Report{Dir: dir, Findings: []finding.Finding{
		{Rule: "PL001", Category: "PL001", Message: "PL001: m", Pos: at("p/p.go"), End: at("p/p.go"), Unit: "example.com/m/p", GOOS: []string{"linux"}},
		{Rule: "PL001", Category: "PL001", Message: "PL001: m", Pos: at("scripts/start.sh"), End: at("scripts/start.sh")},
		{Rule: "PL001", Category: "PL001", Message: "PL001: m", Pos: at("daemon.py"), End: at("daemon.py")},
		{Rule: "PL001", Category: "PL001", Message: "PL001: m", Pos: outside, End: outside},
	}}
	var buf bytes.Buffer
	if err := (JSON{&buf}).Print(rep); err != nil {
		t.Fatal(err)
	}
	var tree map[string]map[string][]map[string]any
	if err := json.Unmarshal(buf.Bytes(), &tree); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	for unit, goos := range map[string]bool{"example.com/m/p": true, "./scripts": false, ".": false, filepath.ToSlash(filepath.FromSlash("/elsewhere/bin")): false} {
		diags := tree[unit]["pidlint"]
		if len(diags) != 1 {
			t.Errorf("unit %q: %d diagnostics, want 1; tree:\n%s", unit, len(diags), buf.String())
			continue
		}
		if _, has := diags[0]["goos"]; has != goos {
			t.Errorf("unit %q: goos present %v, want %v", unit, has, goos)
		}
	}
	if len(tree) != 4 {
		t.Errorf("%d units, want 4:\n%s", len(tree), buf.String())
	}
}
