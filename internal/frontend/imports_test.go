package frontend

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/pidlint/pidlint"

// seamImports are the packages of the pipeline a front end may import:
// the seam, the catalogue, the finding type and the source cache, and the
// shared command knowledge. Anything else of the module it imports is
// its own (frontEndImports), never a stage after it (filter, fix, print,
// config, explain).
var seamImports = []string{"internal/frontend", "internal/rules", "internal/finding", "internal/source", "internal/shellcmd"}

// frontEndImports are, per front end, the packages of the module it may
// import besides seamImports and its own subpackages: its analysis.
var frontEndImports = map[string][]string{
	"golang": {"analyzer", "internal/gocmd"},
	"python": {},
	"shell":  nil,
}

// goList runs go list -f format on the patterns of the module and returns
// its lines.
func goList(t *testing.T, format string, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-f", format}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// TestFrontEndImports holds the seam: each front end's packages import
// of the module only seamImports, their own subpackages and their
// analysis (frontEndImports); the seam itself only the catalogue, finding
// and source. Every front end under internal/frontend is listed.
func TestFrontEndImports(t *testing.T) {
	seen := map[string]bool{}
	for _, line := range goList(t, "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"/internal/frontend/...") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module+"/")
		rest, _ := strings.CutPrefix(pkg, "internal/frontend/")
		name, _, _ := strings.Cut(rest, "/")
		allowed := []string{"internal/rules", "internal/finding", "internal/source"}
		if pkg != "internal/frontend" {
			extra, ok := frontEndImports[name]
			if !ok {
				t.Errorf("front end %s is not in frontEndImports: list what of the module it may import", name)
			}
			seen[name] = true
			allowed = append(slices.Clone(seamImports), extra...)
		}
		for _, imp := range fields[1:] {
			local, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue // the standard library, x/tools, parsers
			}
			own := strings.HasPrefix(local, "internal/frontend/"+name+"/") && pkg != "internal/frontend"
			if !own && !slices.Contains(allowed, local) {
				t.Errorf("%s imports %s: a front end imports of the pipeline only %s", pkg, local, strings.Join(seamImports, ", "))
			}
		}
	}
	for name := range frontEndImports {
		if !seen[name] {
			t.Errorf("frontEndImports lists %s, which is no package under internal/frontend", name)
		}
	}
}

// TestStagesDoNotImportFrontEnds checks the other direction: the stages
// after the front ends, and the catalogue they read, depend on no front
// end and not on the Go analysis pass; and the analyzer (which go vet,
// golangci-lint and nogo import) on nothing of the pipeline but the
// catalogue and the command knowledge.
func TestStagesDoNotImportFrontEnds(t *testing.T) {
	stages := []string{"internal/config", "internal/explain", "internal/filter", "internal/print", "internal/rules", "internal/finding", "internal/source", "internal/shellcmd"}
	for _, stage := range stages {
		for _, dep := range goList(t, "{{.ImportPath}}", "-deps", module+"/"+stage) {
			local, ok := strings.CutPrefix(dep, module+"/")
			if ok && (local == "analyzer" || strings.HasPrefix(local, "analyzer/") || strings.HasPrefix(local, "internal/frontend")) {
				t.Errorf("%s depends on %s", stage, local)
			}
		}
	}
	for _, dep := range goList(t, "{{.ImportPath}}", "-deps", module+"/analyzer") {
		local, ok := strings.CutPrefix(dep, module+"/")
		if ok && !strings.HasPrefix(local, "analyzer") && local != "internal/rules" && local != "internal/shellcmd" {
			t.Errorf("analyzer depends on %s", local)
		}
	}
}
