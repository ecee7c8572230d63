package main

// This file writes findings as a SARIF 2.1.0 log (-format=sarif), the
// format GitHub code scanning and other dashboards import.

import (
	"encoding/json"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pidlint/pidlint/analyzer"
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

// sarifRules are the rules of the log: analyzer.Rules, then the
// directive pseudo-rule.
func sarifRules() []sarifRule {
	var rules []sarifRule
	for _, r := range analyzer.Rules {
		rules = append(rules, sarifRule{
			ID:                   r.ID,
			Name:                 r.Name,
			ShortDescription:     sarifText{Text: r.Title},
			FullDescription:      sarifText{Text: unwrapParagraphs(r.Text)},
			Help:                 &sarifText{Text: r.Explain(), Markdown: ruleSection(r)},
			HelpURI:              r.URL(),
			DefaultConfiguration: sarifRuleConfig{Level: "error"},
			Properties:           map[string][]string{"tags": {"correctness", "portability"}},
		})
	}
	rules = append(rules, sarifRule{
		ID:                   directiveRule.ID,
		Name:                 directiveRule.ID,
		ShortDescription:     sarifText{Text: directiveRule.Title},
		FullDescription:      sarifText{Text: unwrapParagraphs(directiveRule.Text)},
		HelpURI:              docsURL + "#" + directiveRule.Anchor,
		DefaultConfiguration: sarifRuleConfig{Level: "error"},
	})
	return rules
}

// writeSARIF writes rep as a SARIF log with one run.
func writeSARIF(w io.Writer, rep *report) error {
	rules := sarifRules()
	index := make(map[string]int)
	for i, r := range rules {
		index[r.ID] = i
	}
	cols := newColumns()
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "pidlint",
			Version:        toolVersion(),
			InformationURI: "https://github.com/pidlint/pidlint",
			Rules:          rules,
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(rep.errors) == 0}},
		ColumnKind:  "utf16CodeUnits",
		Results:     []sarifResult{},
	}
	if rep.root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: fileURI(rep.root) + "/"}}
	}
	for _, e := range rep.errors {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifText{Text: e}})
	}
	for _, f := range rep.findings {
		id := f.rule
		if id == "" {
			id = directiveRule.ID
		}
		res := sarifResult{
			RuleID:    id,
			RuleIndex: index[id],
			Level:     "error",
			Message:   sarifText{Text: f.message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: artifact(rep.root, f.pos.Filename),
				Region:           cols.region(f.pos, f.end),
			}}},
		}
		if f.category != "" && f.category != f.rule {
			res.Properties = map[string]string{"category": f.category}
		}
		for _, fx := range f.fixes {
			res.Fixes = append(res.Fixes, sarifFixOf(rep.root, fx, cols))
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

func sarifFixOf(root string, fx fix, cols *columns) sarifFix {
	out := sarifFix{Description: sarifText{Text: fx.message}}
	byFile := make(map[string]int) // file name → index in ArtifactChanges
	for _, e := range fx.edits {
		i, ok := byFile[e.pos.Filename]
		if !ok {
			i = len(out.ArtifactChanges)
			byFile[e.pos.Filename] = i
			out.ArtifactChanges = append(out.ArtifactChanges, sarifArtifactChange{ArtifactLocation: artifact(root, e.pos.Filename)})
		}
		rep := sarifReplacement{DeletedRegion: cols.region(e.pos, e.end)}
		if e.newText != "" {
			rep.InsertedContent = &sarifText{Text: e.newText}
		}
		out.ArtifactChanges[i].Replacements = append(out.ArtifactChanges[i].Replacements, rep)
	}
	return out
}

// artifact locates a file: relative to the root when it is under it,
// else by an absolute file URI.
func artifact(root, name string) sarifArtifactLoc {
	if rel := relPath(root, name); rel != "" {
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

// toolVersion is pidlint's module version when it was built from a
// module download ("go install …@v1.2.3"), else "".
func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return ""
}

// columns converts go/token's byte columns to SARIF's default UTF-16
// code unit columns, reading each file once.
type columns struct {
	files map[string][]byte
}

func newColumns() *columns { return &columns{files: make(map[string][]byte)} }

func (c *columns) region(pos, end token.Position) sarifRegion {
	r := sarifRegion{StartLine: pos.Line, StartColumn: c.utf16(pos)}
	if end.IsValid() && end.Line > 0 {
		r.EndLine, r.EndColumn = end.Line, c.utf16(end)
	}
	return r
}

// utf16 returns the 1-based UTF-16 column of pos.
func (c *columns) utf16(pos token.Position) int {
	if pos.Column <= 0 {
		return 1
	}
	src, ok := c.files[pos.Filename]
	if !ok {
		src, _ = os.ReadFile(pos.Filename)
		c.files[pos.Filename] = src
	}
	start := pos.Offset - (pos.Column - 1)
	if src == nil || start < 0 || pos.Offset > len(src) {
		return pos.Column
	}
	n := 0
	for s := src[start:pos.Offset]; len(s) > 0; {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		n += max(utf16.RuneLen(r), 1)
	}
	return n + 1
}
