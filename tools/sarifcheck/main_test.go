package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPidlintSARIF validates pidlint -format=sarif output on pidlint's
// testdata module, and checks that the schema rejects broken variants of
// it (so that a validator that accepts everything cannot pass).
func TestPidlintSARIF(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "pidlint")
	build := exec.Command("go", "build", "-o", bin, "./cmd/pidlint")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/pidlint: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-format=sarif", "-strict", "./...")
	cmd.Dir = filepath.Join(root, "cmd", "pidlint", "testdata", "probes")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("pidlint -format=sarif: %v (want exit 3)\n%s", err, out)
	}
	if !strings.Contains(string(out), `"ruleId": "PL006"`) {
		t.Fatalf("no PL006 result in\n%s", out)
	}

	sch, err := compile()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	check := func(name string, data []byte) error {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return validate(sch, file)
	}
	if err := check("pidlint.sarif", out); err != nil {
		t.Fatalf("pidlint's SARIF log is invalid: %v", err)
	}

	for name, breakIt := range map[string]func(run map[string]any){
		"relative helpUri": func(run map[string]any) {
			rule := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)[0].(map[string]any)
			rule["helpUri"] = "docs/rules.md#pl001"
		},
		"result without message": func(run map[string]any) {
			delete(run["results"].([]any)[0].(map[string]any), "message")
		},
		"bad level": func(run map[string]any) {
			run["results"].([]any)[0].(map[string]any)["level"] = "fatal"
		},
		"start line 0": func(run map[string]any) {
			res := run["results"].([]any)[0].(map[string]any)
			loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
			loc["region"].(map[string]any)["startLine"] = 0
		},
	} {
		var doc map[string]any
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		breakIt(doc["runs"].([]any)[0].(map[string]any))
		data, _ := json.Marshal(doc)
		if err := check("broken.sarif", data); err == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
}
