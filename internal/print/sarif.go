package print

// SARIF 2.1.0 (-format=sarif), the format GitHub code scanning and other
// dashboards import.

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/pidlint/pidlint/internal/explain"
	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/rules"
	"github.com/pidlint/pidlint/internal/version"
)

const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion = "2.1.0"
	srcRoot      = "%SRCROOT%" // the base ID of file locations: the report's root
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	Invocations        []sarifInvocation           `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                      `json:"columnKind"`
	Results            []sarifResult               `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	Name                 string              `json:"name"`
	ShortDescription     sarifText           `json:"shortDescription"`
	FullDescription      sarifText           `json:"fullDescription"`
	Help                 *sarifText          `json:"help,omitempty"`
	HelpURI              string              `json:"helpUri"`
	DefaultConfiguration sarifRuleConfig     `json:"defaultConfiguration"`
	Properties           map[string][]string `json:"properties,omitempty"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifResult struct {
	RuleID     string            `json:"ruleId"`
	RuleIndex  int               `json:"ruleIndex"`
	Level      string            `json:"level"`
	Message    sarifText         `json:"message"`
	Locations  []sarifLocation   `json:"locations"`
	Fixes      []sarifFix        `json:"fixes,omitempty"`
	Properties map[string]string `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           sarifRegion      `json:"region"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent *sarifText  `json:"insertedContent,omitempty"`
}

// sarifRules are the rules of the log: every rule of the catalogue, of
// every language, then the directive pseudo-rule.
func sarifRules() []sarifRule {
	var out []sarifRule
	for _, r := range rules.All() {
		out = append(out, sarifRule{
			ID:                   r.ID,
			Name:                 r.Name,
			ShortDescription:     sarifText{Text: r.Title},
			FullDescription:      sarifText{Text: explain.Unwrap(r.Text)},
			Help:                 &sarifText{Text: r.Explain(), Markdown: explain.RuleSection(r)},
			HelpURI:              r.URL(),
			DefaultConfiguration: sarifRuleConfig{Level: "error"},
			Properties:           map[string][]string{"tags": {"correctness", "portability", string(r.Category), r.Language.Name}},
		})
	}
	d := rules.DirectiveRule
	out = append(out, sarifRule{
		ID:                   d.ID,
		Name:                 d.ID,
		ShortDescription:     sarifText{Text: d.Title},
		FullDescription:      sarifText{Text: explain.Unwrap(d.Text)},
		HelpURI:              rules.DocsURL + "#" + d.Anchor,
		DefaultConfiguration: sarifRuleConfig{Level: "error"},
	})
	return out
}

// SARIF prints a report as a SARIF log with one run. Columns count UTF-16
// code units, SARIF's default.
type SARIF struct{ W io.Writer }

func (p SARIF) Print(rep *finding.Report) error {
	ruleList := sarifRules()
	index := make(map[string]int)
	for i, r := range ruleList {
		index[r.ID] = i
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "pidlint",
			Version:        version.Released(),
			InformationURI: "https://github.com/pidlint/pidlint",
			Rules:          ruleList,
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(rep.Errors) == 0}},
		ColumnKind:  "utf16CodeUnits",
		Results:     []sarifResult{},
	}
	if rep.Root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: fileURI(rep.Root) + "/"}}
	}
	for _, e := range rep.Errors {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifText{Text: e}})
	}
	for _, f := range rep.Findings {
		id := f.Rule
		if id == "" {
			id = rules.DirectiveRule.ID
		}
		res := sarifResult{
			RuleID:    id,
			RuleIndex: index[id],
			Level:     "error",
			Message:   sarifText{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: artifact(rep.Root, f.Pos.File),
				Region:           region(f.Pos, f.End),
			}}},
		}
		if f.Category != "" && f.Category != f.Rule {
			res.Properties = map[string]string{"category": f.Category}
		}
		for _, fx := range f.Fixes {
			res.Fixes = append(res.Fixes, sarifFixOf(rep.Root, fx))
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(p.W)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

func sarifFixOf(root string, fx finding.Fix) sarifFix {
	out := sarifFix{Description: sarifText{Text: fx.Message}}
	byFile := make(map[string]int) // file name → index in ArtifactChanges
	for _, e := range fx.Edits {
		i, ok := byFile[e.Pos.File]
		if !ok {
			i = len(out.ArtifactChanges)
			byFile[e.Pos.File] = i
			out.ArtifactChanges = append(out.ArtifactChanges, sarifArtifactChange{ArtifactLocation: artifact(root, e.Pos.File)})
		}
		rep := sarifReplacement{DeletedRegion: region(e.Pos, e.End)}
		if e.New != "" {
			rep.InsertedContent = &sarifText{Text: e.New}
		}
		out.ArtifactChanges[i].Replacements = append(out.ArtifactChanges[i].Replacements, rep)
	}
	return out
}

// artifact locates a file: relative to the root when it is under it,
// else by an absolute file URI.
func artifact(root, name string) sarifArtifactLoc {
	if rel := finding.Rel(root, name); rel != "" {
		return sarifArtifactLoc{URI: (&url.URL{Path: rel}).String(), URIBaseID: srcRoot}
	}
	return sarifArtifactLoc{URI: fileURI(name)}
}

// fileURI is the file: URI of an absolute path.
func fileURI(name string) string {
	p := filepath.ToSlash(name)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: strings.TrimSuffix(p, "/")}).String()
}

// region is the SARIF region from pos to end.
func region(pos, end finding.Position) sarifRegion {
	r := sarifRegion{StartLine: pos.Line, StartColumn: pos.Column16}
	if end.IsValid() {
		r.EndLine, r.EndColumn = end.Line, end.Column16
	}
	return r
}
