package main

import (
	"fmt"
	"slices"

	"github.com/pidlint/pidlint/internal/config"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/frontend/golang"
	"github.com/pidlint/pidlint/internal/frontend/python"
	"github.com/pidlint/pidlint/internal/frontend/shell"
	"github.com/pidlint/pidlint/internal/gocmd"
	"github.com/pidlint/pidlint/internal/rules"
)

// A runEnv is what a front end may need of the run to be made.
type runEnv struct {
	opts  *config.Options
	goCmd *gocmd.Runner
	host  string // the GOOS the go command builds for unasked
}

// A registration is one front end pidlint has: the language it checks
// (rules.Languages) and how a run makes it.
type registration struct {
	lang *rules.Language
	new  func(c command, env runEnv) (frontend.FrontEnd, error)
}

// frontEnds are pidlint's front ends, in rules.Languages' order: a new
// language's front end is one entry here (its rules are in the
// catalogue, internal/rules; its files, test files and comments in its
// rules.Language). docs/architecture.md: Adding a front end.
var frontEnds = []registration{
	{rules.Go, newGoFrontEnd},
	{rules.Python, func(command, runEnv) (frontend.FrontEnd, error) { return python.New(), nil }},
	{rules.Shell, func(command, runEnv) (frontend.FrontEnd, error) { return shell.New(), nil }},
}

func newGoFrontEnd(c command, env runEnv) (frontend.FrontEnd, error) {
	tool, err := c.vetTool()
	if err != nil {
		return nil, err
	}
	return golang.New(golang.Options{Go: env.goCmd, Tool: tool, Host: env.host, GOOS: env.opts.GOOS, Safeprobe: env.opts.Safeprobe}), nil
}

// selectFrontEnds returns the front ends of langs (-languages), or all for
// none. A language pidlint knows but has no front end for is an error.
func selectFrontEnds(langs []*rules.Language) ([]registration, error) {
	if langs == nil {
		return frontEnds, nil
	}
	var regs []registration
	for _, reg := range frontEnds {
		if slices.Contains(langs, reg.lang) {
			regs = append(regs, reg)
		}
	}
	for _, l := range langs {
		if !slices.ContainsFunc(regs, func(reg registration) bool { return reg.lang == l }) {
			var have []*rules.Language
			for _, reg := range frontEnds {
				have = append(have, reg.lang)
			}
			return nil, fmt.Errorf("-languages: pidlint has no front end for %s (it checks %s)", l.Name, rules.LanguageNames(have))
		}
	}
	return regs, nil
}

// newFrontEnds makes the run's front ends.
func (c command) newFrontEnds(regs []registration, env runEnv) ([]frontend.FrontEnd, error) {
	var fes []frontend.FrontEnd
	for _, reg := range regs {
		fe, err := reg.new(c, env)
		if err != nil {
			return nil, err
		}
		fes = append(fes, fe)
	}
	return fes, nil
}
