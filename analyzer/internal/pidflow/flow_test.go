package pidflow_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
	"github.com/pidlint/pidlint/analyzer/internal/facts"
	"github.com/pidlint/pidlint/analyzer/internal/pidflow"
)

// flowAnalyzer reports what the flow finds, as diagnostics: each Signal
// as "signal <what> <source>", each Guard as "guard <kind>".
var flowAnalyzer = &analysis.Analyzer{
	Name:      "pidflow",
	Doc:       "reports the value flow's signals and guards",
	Requires:  []*analysis.Analyzer{inspect.Analyzer},
	FactTypes: facts.Types(),
	Run:       runFlow(pidflow.Options{}),
}

// runFlow returns an analyzer's run that reports the flow's findings
// with opts; its debug lines too, at the package clause.
func runFlow(opts pidflow.Options) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		cls := &calls.Classifier{Info: pass.TypesInfo, Safeprobe: "github.com/pidlint/pidlint/safeprobe"}
		opts := opts // passes run in parallel: each sets its own Debugf
		opts.Debugf = func(format string, args ...any) {
			pass.Reportf(pass.Files[0].Package, "debug: "+format, args...)
		}
		f := pidflow.New(pass, in, cls, opts)
		for _, s := range f.Signals() {
			by := ""
			if s.ByName {
				by = " (by name)"
			}
			pass.Reportf(s.Pos, "signal %s %s%s", s.What, s.Source.Describe(pass.Fset), by)
		}
		for _, g := range f.Guards() {
			pass.Reportf(g.Pos, "guard %s", guardNames[g.Kind])
		}
		return nil, nil
	}
}

var guardNames = map[pidflow.GuardKind]string{
	pidflow.ExclusiveNoRecovery:    "exclusive-no-recovery",
	pidflow.ExclusiveBlindRecovery: "exclusive-blind-recovery",
	pidflow.ExistenceGuard:         "existence",
	pidflow.LivenessGuard:          "liveness",
}

// TestSignals: stored PIDs followed through copies, phis, channels,
// closures, method values and struct fields to the signals they reach;
// own children, the own PID and the kernel's lists left alone.
func TestSignals(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), flowAnalyzer, "basic", "fields")
}

// TestGuards: each guard kind, standing where its fix goes.
func TestGuards(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), flowAnalyzer, "guards")
}

// TestFacts: summaries leave as facts and come back as summaries in an
// importer, with the source they describe.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), flowAnalyzer, "flowlib", "flowuse")
}

// TestTooLarge: a function over the bound is skipped with a debug line,
// and nothing in it is reported.
func TestTooLarge(t *testing.T) {
	a := *flowAnalyzer
	a.Run = runFlow(pidflow.Options{MaxInstructions: 20})
	analysistest.Run(t, analysistest.TestData(), &a, "big")
}
