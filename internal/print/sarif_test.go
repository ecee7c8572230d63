package print

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/rules"
)

// TestSARIFColumns checks that a result's columns are its findings'
// UTF-16 columns, SARIF's default, and that a file outside the root gets a
// file: URI.
func TestSARIFColumns(t *testing.T) {
	pos := finding.Position{File: "/src/p.go", Offset: 30, Line: 3, Column: 24, Column16: 20}
	end := finding.Position{File: "/src/p.go", Offset: 31, Line: 3, Column: 25, Column16: 21}
	rep := &finding.Report{Root: "/src", Findings: []finding.Finding{{Pos: pos, End: end, Rule: "PL001", Message: "PL001: m"}}}
	_, doc := encodeSARIF(t, rep)
	reg := doc.Runs[0].Results[0].Locations[0].PhysicalLocation.Region
	if reg.StartColumn != 20 || reg.EndColumn != 21 {
		t.Errorf("columns %d..%d, want the UTF-16 columns 20..21", reg.StartColumn, reg.EndColumn)
	}
	if got := doc.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; got != "p.go" {
		t.Errorf("uri %q, want p.go", got)
	}
	rep.Root = "/elsewhere"
	out, _ := encodeSARIF(t, rep)
	if want := `"uri": "file:///src/p.go"`; !strings.Contains(string(out), want) {
		t.Errorf("file outside the root: no %s in\n%s", want, out)
	}
}

// TestSARIFDirective checks that a diagnostic about a //pidlint:ignore
// directive, which has no rule ID, gets the directive rule.
func TestSARIFDirective(t *testing.T) {
	pos := finding.Position{File: "/src/p.go", Line: 4, Column: 2, Column16: 2}
	rep := &finding.Report{Root: "/src", Findings: []finding.Finding{{Pos: pos, Message: "this pidlint:ignore PL001 matched nothing"}}}
	_, doc := encodeSARIF(t, rep)
	res := doc.Runs[0].Results[0]
	entries := doc.Runs[0].Tool.Driver.Rules
	if res.RuleID != rules.DirectiveRule.ID || entries[res.RuleIndex].ID != rules.DirectiveRule.ID {
		t.Errorf("ruleId %q, ruleIndex %d", res.RuleID, res.RuleIndex)
	}
}

// TestSARIFOtherLanguage checks a result in a file of another language
// than Go: its location relative to the root, and its rule's entry from
// the catalogue, as for a Go file.
func TestSARIFOtherLanguage(t *testing.T) {
	pos := finding.Position{File: "/src/bin/start.sh", Line: 2, Column: 1, Column16: 1}
	rep := &finding.Report{Root: "/src", Findings: []finding.Finding{{Pos: pos, End: pos, Rule: "PL005", Category: "PL005", Message: "PL005: m"}}}
	_, doc := encodeSARIF(t, rep)
	res := doc.Runs[0].Results[0]
	entries := doc.Runs[0].Tool.Driver.Rules
	if res.RuleID != "PL005" || entries[res.RuleIndex].ID != "PL005" || len(entries) != len(rules.All())+1 {
		t.Errorf("ruleId %q, ruleIndex %d, %d rules", res.RuleID, res.RuleIndex, len(entries))
	}
	if uri := res.Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "bin/start.sh" {
		t.Errorf("uri %q, want bin/start.sh", uri)
	}
}

// sarifDoc is the part of a SARIF log the tests read.
type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine, StartColumn, EndLine, EndColumn int
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

// encodeSARIF writes rep as SARIF and decodes it again.
func encodeSARIF(t *testing.T, rep *finding.Report) ([]byte, sarifDoc) {
	t.Helper()
	var buf bytes.Buffer
	if err := (SARIF{&buf}).Print(rep); err != nil {
		t.Fatal(err)
	}
	var doc sarifDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), doc
}
