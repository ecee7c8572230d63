// Package golang is pidlint's Go front end: Go packages, as they build
// for each GOOS of a run, analyzed by the analyzer (package analyzer)
// through the go vet route (go vet -vettool=pidlint -json, whose results
// the go command caches per package), in process for an empty build cache,
// and from source for the packages go vet's export data cannot
// type-check. Its findings, positions resolved in the user's files (cgo
// files mapped back), go to the pipeline as finding.Findings; package
// plan decides which packages each GOOS build analyzes.
package golang

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pidlint/pidlint/analyzer"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/frontend/golang/plan"
	"github.com/pidlint/pidlint/internal/gocmd"
	"github.com/pidlint/pidlint/internal/rules"
)

// Options are what the Go front end needs besides a run's Input.
type Options struct {
	Go        *gocmd.Runner
	Tool      string   // the vet tool go vet runs: this executable
	Host      string   // the GOOS the go command builds for unasked
	GOOS      []string // the builds, the host's first when listed
	Safeprobe string   // the import path the fixes call, "" for safeprobe's own
}

// FrontEnd is the Go front end.
type FrontEnd struct{ opts Options }

var _ frontend.FrontEnd = (*FrontEnd)(nil)

// New returns the Go front end.
func New(opts Options) *FrontEnd { return &FrontEnd{opts: opts} }

// Language is Go.
func (*FrontEnd) Language() *rules.Language { return rules.Go }

// ErrNoModule is the one line pidlint prints for Go files under a
// directory pattern outside any module, instead of the go command's
// several.
var ErrNoModule = errors.New("no Go module here: its Go files are not checked (run pidlint inside a module, pass packages, or leave go out of -languages)")

// Check analyzes the packages in.Patterns name. With no Go file under
// them it runs no go command and checks nothing; outside a module, their
// Go files are an error.
func (fe *FrontEnd) Check(in *frontend.Input) (*frontend.Result, error) {
	if len(in.Patterns) == 0 {
		return &frontend.Result{}, nil
	}
	p, err := plan.New(fe.opts.Go, fe.opts.Host, fe.opts.GOOS, in.Patterns)
	if err != nil {
		return nil, err
	}
	if p.NoGoFiles() {
		return &frontend.Result{}, nil
	}
	if err := fe.checkModule(in.Patterns); err != nil {
		return &frontend.Result{Errors: []string{err.Error()}}, nil
	}
	p.Cold = fe.opts.Go.BuildCacheEmpty()
	cfg := config{Go: fe.opts.Go, Tool: fe.opts.Tool, AnalyzerArgs: analyzerArgs(in.Settings, fe.opts.Safeprobe), Tests: in.Settings.Tests, Source: in.Source,
		GOROOT: analyzer.NewCache()}
	res, err := analyze(cfg, p)
	if err != nil {
		return nil, err
	}
	res.Analyzed = func(file string) bool {
		return strings.HasSuffix(file, ".go") && p.Analyzed(filepath.Dir(file))
	}
	return res, nil
}

// checkModule fails with ErrNoModule when a pattern names directories
// (./..., ., ../x, /abs) but the run's directory is in no module and no
// workspace. Import paths, such as the standard library's, work anywhere.
func (fe *FrontEnd) checkModule(patterns []string) error {
	if !slices.ContainsFunc(patterns, frontend.IsDirPattern) {
		return nil
	}
	gomod, err := fe.opts.Go.Env("GOMOD")
	if err != nil {
		return err
	}
	gowork, _ := fe.opts.Go.Env("GOWORK")
	if (gomod == "" || gomod == os.DevNull) && (gowork == "" || gowork == "off") {
		return ErrNoModule
	}
	return nil
}

// analyzerArgs are the analyzer's flags for the settings, "-name=value":
// only those that differ from its defaults, and of -disable only the Go
// rules.
func analyzerArgs(s frontend.Settings, safeprobe string) []string {
	var args, disable []string
	for _, id := range s.Disable {
		if r, ok := rules.Lookup(id); ok && r.Language == rules.Go {
			disable = append(disable, id)
		}
	}
	if len(disable) > 0 {
		args = append(args, "-disable="+strings.Join(disable, ","))
	}
	if safeprobe != "" {
		args = append(args, "-safeprobe="+safeprobe)
	}
	if s.Debug {
		args = append(args, "-flow-debug=true")
	}
	if s.Strict {
		args = append(args, "-strict=true")
	}
	return args
}
