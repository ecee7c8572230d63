package main

import (
	"github.com/pidlint/pidlint/internal/config"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/frontend/golang"
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
}

func newGoFrontEnd(c command, env runEnv) (frontend.FrontEnd, error) {
	tool, err := c.vetTool()
	if err != nil {
		return nil, err
	}
	return golang.New(golang.Options{Go: env.goCmd, Tool: tool, Host: env.host, GOOS: env.opts.GOOS, Safeprobe: env.opts.Safeprobe}), nil
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
