package analyzer_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pidlint/pidlint/analyzer"
)

var testdata, _ = filepath.Abs(filepath.Join("..", "testdata"))

func TestKillZero(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, analyzer.Analyzer, "killzero", "killzeroimports")
}

func TestSignalZero(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, analyzer.Analyzer, "signalzero")
}

func TestFindProcess(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, analyzer.Analyzer, "findprocess")
}

func TestProcStat(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, analyzer.Analyzer, "procstat")
}

func TestShellProbe(t *testing.T) {
	analysistest.Run(t, testdata, analyzer.Analyzer, "shellprobe")
}

func TestWrapper(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata, analyzer.Analyzer, "wrapper/procutil", "wrapper/daemon")
}

func TestIgnore(t *testing.T) {
	analysistest.Run(t, testdata, analyzer.Analyzer, "ignore")
}

func TestStrict(t *testing.T) {
	analysistest.Run(t, testdata, analyzer.New(analyzer.Config{Strict: true}), "strict")
}
