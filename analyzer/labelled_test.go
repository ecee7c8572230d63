package analyzer_test

import (
	"go/ast"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pidlint/pidlint/analyzer"
)

// labelledCorpora are, per rule, the testdata packages whose functions are
// labelled by name: bad* must be reported by the rule, good* (correct
// look-alikes) must not.
var labelledCorpora = map[string][]string{
	"PL007": {"signalstale", "signalstale/pidfile", "signalstale/ctl", "signalstalefix"},
	"PL008": {"pidfileblock", "pidfileblock/monitor"},
}

// TestLabelledShapes scores each rule on its labelled corpus: precision
// must be 1 (a false alarm costs more than a missed finding), and the
// corpus must hold at least 40 shapes, half of them look-alikes.
func TestLabelledShapes(t *testing.T) {
	t.Parallel()
	for rule, pkgs := range labelledCorpora {
		t.Run(rule, func(t *testing.T) {
			var tp, fn, fp, tn int
			seen := map[string]bool{} // a package and its test variant share files
			for _, res := range analysistest.Run(discard{}, testdata, analyzer.Analyzer, pkgs...) {
				if res.Pass == nil {
					continue
				}
				for _, f := range res.Pass.Files {
					for _, decl := range f.Decls {
						fd, ok := decl.(*ast.FuncDecl)
						if !ok {
							continue
						}
						bad := strings.HasPrefix(fd.Name.Name, "bad")
						pos := res.Pass.Fset.Position(fd.Pos()).String()
						if !bad && !strings.HasPrefix(fd.Name.Name, "good") || seen[pos] {
							continue
						}
						seen[pos] = true
						reported := false
						for _, d := range res.Diagnostics {
							if d.Category == rule && fd.Pos() <= d.Pos && d.Pos < fd.End() {
								reported = true
							}
						}
						switch {
						case bad && reported:
							tp++
						case bad:
							fn++
							t.Logf("missed: %s", fd.Name.Name)
						case reported:
							fp++
							t.Errorf("false alarm: %s (%s)", fd.Name.Name, res.Pass.Fset.Position(fd.Pos()))
						default:
							tn++
						}
					}
				}
			}
			t.Logf("%s: %d shapes (%d bad, %d good): precision %d/%d, recall %d/%d",
				rule, tp+fn+fp+tn, tp+fn, fp+tn, tp, tp+fp, tp, tp+fn)
			if tp+fn+fp+tn < 40 || fp+tn < 20 {
				t.Errorf("%s: %d bad and %d good shapes; want at least 40, half of them good", rule, tp+fn, fp+tn)
			}
		})
	}
}
