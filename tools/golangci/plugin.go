// Package golangci is pidlint as a golangci-lint v2 module plugin.
//
// Importing the package registers the linter "pidlint". A custom
// golangci-lint binary that imports it (built by "golangci-lint custom"
// from .custom-gcl.yml, or without a clone from tools/custom-gcl) runs it when
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
// The settings are the keys of pidlint's config file (pidlint.conf) that
// the analyzer takes. Every setting is optional; an unknown setting or
// rule is an error, and so are goos and exclude, which golangci-lint
// decides itself, and languages: golangci-lint runs the Go rules only. See
// docs/golangci-lint.md.
package golangci

import (
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/analyzer"
	"github.com/pidlint/pidlint/internal/config"
)

func init() {
	register.Plugin("pidlint", New)
}

// Plugin is the pidlint linter for golangci-lint.
type Plugin struct {
	cfg analyzer.Config
}

var _ register.LinterPlugin = (*Plugin)(nil)

// New decodes and checks the settings: the keys of pidlint's config file
// (pidlint.conf) that the analyzer takes, strict, safeprobe and disable,
// checked the same way. It is the constructor registered with
// golangci-lint.
func New(settings any) (register.LinterPlugin, error) {
	m, err := register.DecodeSettings[map[string]any](settings)
	if err != nil {
		return nil, fmt.Errorf("pidlint: %w", err)
	}
	s, err := config.Settings(m)
	if err != nil {
		return nil, fmt.Errorf("pidlint: %w", err)
	}
	// One Cache for the run: what the analyzer reads of GOROOT is read once.
	return &Plugin{cfg: analyzer.Config{Strict: s.Strict, SafeprobePath: s.Safeprobe, Disable: s.Disable, Cache: analyzer.NewCache()}}, nil
}

// BuildAnalyzers returns a pidlint analyzer configured by the settings.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{analyzer.New(p.cfg)}, nil
}

// GetLoadMode reports that pidlint needs type information.
func (p *Plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}
