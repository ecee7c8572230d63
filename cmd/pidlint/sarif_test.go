package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/pidlint/pidlint/internal/rules"
)

// TestSARIF checks the SARIF log of a run on testdata/probes by hand,
// then against the SARIF 2.1.0 JSON schema with tools/sarifcheck.
func TestSARIF(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := sharedModule(t, "probes")
	r := mustRun(t, exitFindings, dir, nil, bin, "-format=sarif", "-strict", "./...")
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
	checkSARIF(t, []byte(r.stdout), []want{
		{"a/a.go", 11, "PL001"},
		{"b/b.go", 13, "PL006"},
		{"b/b.go", 22, "PL002"},
		{"b/b_test.go", 10, "PL001"},
	})
	validateSARIF(t, []byte(r.stdout))
}

// sarifDoc is the part of a SARIF log the test reads.
type sarifDoc struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string            `json:"id"`
					Name             string            `json:"name"`
					ShortDescription map[string]string `json:"shortDescription"`
					FullDescription  map[string]string `json:"fullDescription"`
					HelpURI          string            `json:"helpUri"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
		Invocations []struct {
			ExecutionSuccessful *bool `json:"executionSuccessful"`
		} `json:"invocations"`
		Results []struct {
			RuleID     string            `json:"ruleId"`
			RuleIndex  int               `json:"ruleIndex"`
			Level      string            `json:"level"`
			Message    map[string]string `json:"message"`
			Properties map[string]string `json:"properties"`
			Locations  []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine, StartColumn, EndLine, EndColumn int
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			Fixes []json.RawMessage `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

// checkSARIF checks the structure the SARIF schema and GitHub code
// scanning require, and that the results are wants.
func checkSARIF(t *testing.T, data []byte, wants []want) {
	t.Helper()
	var doc sarifDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	if doc.Version != "2.1.0" || !strings.HasSuffix(doc.Schema, "sarif-schema-2.1.0.json") {
		t.Errorf("version %q, $schema %q", doc.Version, doc.Schema)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(doc.Runs))
	}
	run := doc.Runs[0]
	if run.Tool.Driver.Name != "pidlint" {
		t.Errorf("tool.driver.name = %q", run.Tool.Driver.Name)
	}
	var ids []string
	for _, rule := range run.Tool.Driver.Rules {
		ids = append(ids, rule.ID)
		if rule.Name == "" || rule.ShortDescription["text"] == "" || rule.FullDescription["text"] == "" {
			t.Errorf("rule %s: name %q, shortDescription %v, fullDescription %v", rule.ID, rule.Name, rule.ShortDescription, rule.FullDescription)
		}
		if !strings.HasPrefix(rule.HelpURI, "https://") || !strings.Contains(rule.HelpURI, "docs/rules.md#") {
			t.Errorf("rule %s: helpUri %q", rule.ID, rule.HelpURI)
		}
	}
	var wantIDs []string
	for _, r := range rules.All() {
		wantIDs = append(wantIDs, r.ID)
		if i := slices.Index(ids, r.ID); i >= 0 {
			if got, want := run.Tool.Driver.Rules[i].HelpURI, rules.DocsURL+"#"+strings.ToLower(r.ID); got != want {
				t.Errorf("rule %s: helpUri %q, want %q", r.ID, got, want)
			}
		}
	}
	wantIDs = append(wantIDs, "ignore-directive")
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("rules %v, want %v", ids, wantIDs)
	}
	if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful == nil || !*run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations: %+v", run.Invocations)
	}
	if u := run.OriginalURIBaseIDs["%SRCROOT%"].URI; !strings.HasPrefix(u, "file:///") || !strings.HasSuffix(u, "/") {
		t.Errorf("originalUriBaseIds[%s] = %q", "%SRCROOT%", u)
	}
	var got []want
	for _, res := range run.Results {
		if res.Level != "error" || !strings.HasPrefix(res.Message["text"], res.RuleID+": ") {
			t.Errorf("result %s: level %q, message %q", res.RuleID, res.Level, res.Message["text"])
		}
		if res.RuleIndex < 0 || res.RuleIndex >= len(ids) || ids[res.RuleIndex] != res.RuleID {
			t.Errorf("result %s: ruleIndex %d", res.RuleID, res.RuleIndex)
		}
		if len(res.Locations) != 1 {
			t.Errorf("result %s: %d locations", res.RuleID, len(res.Locations))
			continue
		}
		loc := res.Locations[0].PhysicalLocation
		reg := loc.Region
		if loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || filepath.IsAbs(loc.ArtifactLocation.URI) {
			t.Errorf("result %s: artifactLocation %+v", res.RuleID, loc.ArtifactLocation)
		}
		if reg.StartLine < 1 || reg.StartColumn < 1 || reg.EndLine < reg.StartLine ||
			(reg.EndLine == reg.StartLine && reg.EndColumn <= reg.StartColumn) {
			t.Errorf("result %s: region %+v", res.RuleID, reg)
		}
		if strings.HasSuffix(loc.ArtifactLocation.URI, "_test.go") != (res.Properties["category"] == rules.RawProbe) {
			t.Errorf("result %s in %s: properties %v", res.RuleID, loc.ArtifactLocation.URI, res.Properties)
		}
		if !strings.HasSuffix(loc.ArtifactLocation.URI, "_test.go") && len(res.Fixes) == 0 {
			t.Errorf("result %s: no fixes", res.RuleID)
		}
		got = append(got, want{loc.ArtifactLocation.URI, reg.StartLine, res.RuleID})
	}
	if !slices.Equal(got, wants) {
		t.Errorf("results:\n%v\nwant:\n%v", got, wants)
	}
}

// validateSARIF validates data against the SARIF 2.1.0 JSON schema with
// the nested module tools/sarifcheck (the main module takes no
// dependency on a schema validator). It is skipped when that module's
// dependencies can be neither found nor downloaded.
func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "pidlint.sarif")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, filepath.Join(repoRoot, "tools", "sarifcheck"), nil, "go", "run", ".", file)
	switch {
	case r.code == 0:
	case strings.Contains(r.stderr, "invalid"):
		t.Errorf("SARIF log fails the SARIF 2.1.0 schema:\n%s", r.stderr)
	default:
		t.Skipf("cannot run tools/sarifcheck (its module dependencies?): %s", r.stderr)
	}
}

// TestSARIFColumnsVetRoute checks SARIF's UTF-16 columns on the default
// route, go vet's JSON, whose positions count bytes: a probe after
// multibyte characters on its line.
func TestSARIFColumnsVetRoute(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module")
	}
	t.Parallel()
	bin := pidlintBin(t)
	line := `func Alive(pid int) bool { s := "é😀"; _ = s; return syscall.Kill(pid, 0) == nil }`
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"p.go":   "package p\n\nimport \"syscall\"\n\n" + line + "\n",
	})
	r := mustRun(t, exitFindings, dir, offlineEnv, bin, "-format=sarif", "-goos=linux", "./...")
	var doc sarifDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Runs) != 1 || len(doc.Runs[0].Results) != 1 {
		t.Fatalf("want one result: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	reg := doc.Runs[0].Results[0].Locations[0].PhysicalLocation.Region
	before := line[:strings.Index(line, "syscall.Kill")]
	// é is one UTF-16 unit in two bytes, 😀 two units in four bytes.
	want := len(utf16.Encode([]rune(before))) + 1
	if want == len(before)+1 {
		t.Fatal("the line has no multibyte characters before the probe")
	}
	if reg.StartLine != 5 || reg.StartColumn != want {
		t.Errorf("region starts at %d:%d, want 5:%d (the byte column is %d)", reg.StartLine, reg.StartColumn, want, len(before)+1)
	}
}
