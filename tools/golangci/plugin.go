// Package golangci is pidlint as a golangci-lint v2 module plugin.
//
// Importing the package registers the linter "pidlint". A custom
// golangci-lint binary that imports it (built by "golangci-lint custom"
// from .custom-gcl.yml, or offline from tools/custom-gcl) runs it when
// .golangci.yml enables it:
//
//	version: "2"
//	linters:
//	  enable:
//	    - pidlint
//	  settings:
//	    custom:
//	      pidlint:
//	        type: module
//	        description: reports unsafe process-liveness checks
//	        settings:
//	          strict: true                      # -strict: also report raw probes
//	          safeprobe: example.com/safeprobe  # import path suggested fixes use
//	          disable: [PL004, shell-probe]     # rule IDs or names not to report
//
// Every setting is optional; an unknown setting or rule is an error.
// See docs/golangci-lint.md.
package golangci

import (
	"fmt"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/analyzer"
)

func init() {
	register.Plugin("pidlint", New)
}

// Settings are the plugin's settings in .golangci.yml, under
// linters.settings.custom.pidlint.settings. They mirror the analyzer's
// flags -strict, -safeprobe and -disable.
type Settings struct {
	// Strict also reports raw probes that are correct where they stand
	// but bypass safeprobe (category raw-probe).
	Strict bool `json:"strict"`
	// Safeprobe is the import path of the safeprobe package suggested
	// fixes call; empty means github.com/pidlint/pidlint/safeprobe.
	Safeprobe string `json:"safeprobe"`
	// Disable lists rules not to report, by ID (PL004) or name (proc-stat).
	Disable []string `json:"disable"`
}

// Plugin is the pidlint linter for golangci-lint.
type Plugin struct {
	cfg analyzer.Config
}

var _ register.LinterPlugin = (*Plugin)(nil)

// New decodes and checks the settings. It is the constructor registered
// with golangci-lint.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("pidlint: %w", err)
	}
	disable, err := analyzer.ParseRules(strings.Join(s.Disable, ","))
	if err != nil {
		return nil, fmt.Errorf("pidlint: disable: %w", err)
	}
	return &Plugin{cfg: analyzer.Config{Strict: s.Strict, SafeprobePath: s.Safeprobe, Disable: disable}}, nil
}

// BuildAnalyzers returns a pidlint analyzer configured by the settings.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{analyzer.New(p.cfg)}, nil
}

// GetLoadMode reports that pidlint needs type information.
func (p *Plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}
