package pidflow_test

import (
	"fmt"
	"go/ast"
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
	Run: func(pass *analysis.Pass) (any, error) {
		in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		cls := &calls.Classifier{Info: pass.TypesInfo, Safeprobe: "github.com/pidlint/pidlint/safeprobe"}
		f := pidflow.New(pass, in, cls, pidflow.Options{Debugf: func(format string, args ...any) {
			pass.Reportf(pass.Files[0].Package, "debug: "+format, args...)
		}})
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
		_ = ast.Inspect
		return nil, nil
	},
}

var guardNames = map[pidflow.GuardKind]string{
	pidflow.ExclusiveNoRecovery:    "exclusive-no-recovery",
	pidflow.ExclusiveBlindRecovery: "exclusive-blind-recovery",
	pidflow.ExistenceGuard:         "existence",
	pidflow.LivenessGuard:          "liveness",
}

func TestBasic(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), flowAnalyzer, "basic")
	_ = fmt.Sprint
}
