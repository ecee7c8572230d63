package golang

// The go vet route: the go command's vet with pidlint as its tool, for one
// GOOS, read from its JSON. The go command loads the packages, type-checks
// dependencies from export data, runs packages in parallel and caches each
// package's result (and with GOCACHEPROG shares that cache between
// machines).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/analyzer"
	"github.com/pidlint/pidlint/internal/frontend/golang/plan"
)

// vetDiagnostic is one diagnostic in go vet -json's output.
type vetDiagnostic struct {
	Category       string `json:"category"`
	Posn           string `json:"posn"`
	End            string `json:"end"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename string `json:"filename"`
			Start    int    `json:"start"`
			End      int    `json:"end"`
			New      string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
}

// vet runs go vet -vettool=pidlint -json for the build.
func (cfg config) vet(b plan.Build) (*build, error) {
	args := append([]string{"vet", "-vettool=" + cfg.Tool, "-json"}, cfg.AnalyzerArgs...)
	args = append(args, b.Patterns...)
	cmd := cfg.Go.Command(b.GOOS, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		return nil, fmt.Errorf("go vet: %v", err)
	}
	out := newBuild(b.GOOS)
	out.readErrors(&stderr)
	if err := out.readJSON(resolver{dir: cfg.dir, src: cfg.Source, cgo: newCgoFiles(cfg.Go, b.GOOS)}, &stdout); err != nil {
		return nil, err
	}
	if err != nil && len(out.failed) == 0 && len(out.general) == 0 {
		out.general = append(out.general, fmt.Sprintf("go vet (GOOS=%s): %v", b.GOOS, err))
	}
	return out, nil
}

// readErrors reads go vet's standard error: "# pkg" heads a package's
// errors, other lines ("go: …", "pattern …") are general. An indented
// line goes on the error before it ("to add:\n\tgo get …").
func (b *build) readErrors(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	pkg := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# "):
			pkg = strings.TrimPrefix(line, "# ")
		case strings.TrimSpace(line) == "":
		case pkg == "" && progress(line):
		case pkg != "":
			b.fail(pkg, line)
		case len(b.general) > 0 && (line[0] == '\t' || line[0] == ' '):
			b.general[len(b.general)-1] += "\n" + line
		default:
			b.general = append(b.general, line)
		}
	}
}

// progress reports whether a line of go vet's standard error says what
// the go command is doing, not what went wrong: the modules it downloads
// on a module's first run.
func progress(line string) bool {
	return strings.HasPrefix(line, "go: downloading ") || strings.HasPrefix(line, "go: extracting ") || strings.HasPrefix(line, "go: finding module for package ")
}

// readJSON reads the JSON trees the tool printed, one per package:
// {"pkg": {"pidlint": [diagnostics] or {"error": "…"}}}.
func (b *build) readJSON(r resolver, in io.Reader) error {
	dec := json.NewDecoder(in)
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("reading go vet -json output: %v", err)
		}
		for pkg, byAnalyzer := range tree {
			for _, raw := range byAnalyzer {
				var diags []vetDiagnostic
				if err := json.Unmarshal(raw, &diags); err != nil {
					var e struct{ Error string }
					if json.Unmarshal(raw, &e) == nil && e.Error != "" {
						b.fail(pkg, e.Error)
						continue
					}
					return fmt.Errorf("reading go vet -json output for %s: %v", pkg, err)
				}
				for _, diag := range diags {
					b.add(r, vetDiagnosticOf(pkg, diag))
				}
			}
		}
	}
}

// vetDiagnosticOf reads a diagnostic from go vet's JSON.
func vetDiagnosticOf(pkg string, diag vetDiagnostic) diagnostic {
	d := diagnostic{pkg: pkg, category: diag.Category, message: diag.Message, rule: vetRule(diag)}
	d.pos.file, d.pos.line, d.pos.col = parsePosn(diag.Posn)
	d.end.file, d.end.line, d.end.col = parsePosn(diag.End)
	for _, sf := range diag.SuggestedFixes {
		fx := diagnosticFix{message: sf.Message}
		for _, te := range sf.Edits {
			fx.edits = append(fx.edits, diagnosticEdit{file: te.Filename, start: te.Start, end: te.End, new: te.New})
		}
		d.fixes = append(d.fixes, fx)
	}
	return d
}

// parsePosn parses "file:line:col" (the file name may hold colons).
func parsePosn(s string) (file string, line, col int) {
	rest, n, ok := cutLast(s)
	if !ok {
		return s, 0, 0
	}
	name, l, ok := cutLast(rest)
	if !ok {
		return rest, n, 0
	}
	return name, l, n
}

// cutLast splits "x:n" into x and the number n.
func cutLast(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return s, 0, false
	}
	return s[:i], n, true
}

// vetRule is the rule a diagnostic from go vet's JSON reports: its
// category, which is the rule's ID. go vet's JSON drops the diagnostic's
// URL, which names the rule of a -strict (raw-probe) finding, so for those
// the message's "PL00N: " prefix is all there is to read.
func vetRule(diag vetDiagnostic) string {
	if r, ok := analyzer.RuleOf(analysis.Diagnostic{Category: diag.Category}); ok {
		return r.ID
	}
	if id, _, ok := strings.Cut(diag.Message, ": "); ok && diag.Category == analyzer.RawProbe {
		if r, ok := analyzer.LookupRule(id); ok && r.ID == id {
			return id
		}
	}
	return ""
}
