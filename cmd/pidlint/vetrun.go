package main

// This file runs the go command's vet with pidlint as its tool for one
// GOOS, and reads the findings from its JSON. The go command loads the
// packages, type-checks dependencies from export data, runs packages in
// parallel and caches each package's result (and with GOCACHEPROG shares
// that cache between machines).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/pidlint/pidlint/analyzer"
)

// A goosBuild is the result of one go vet run for one GOOS.
type goosBuild struct {
	goos     string
	findings []finding
	// failed holds, per package, why it could not be analyzed (its type
	// errors); general holds errors that name no package.
	failed  map[string]string
	general []string
}

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

// vet runs go vet -vettool=pidlint -json for goos on patterns.
func (d *driver) vet(goos string, opts *options, patterns []string, files *fileIndex) (*goosBuild, error) {
	args := []string{"vet", "-vettool=" + d.tool, "-json"}
	args = append(args, opts.analyzerArgs...)
	args = append(args, patterns...)
	cmd := d.goCommand(opts, goos, args)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		return nil, fmt.Errorf("go vet: %v", err)
	}
	b := &goosBuild{goos: goos, failed: make(map[string]string)}
	b.readErrors(&stderr)
	if err := b.readJSON(&stdout, files); err != nil {
		return nil, err
	}
	if err != nil && len(b.failed) == 0 && len(b.general) == 0 {
		b.general = append(b.general, fmt.Sprintf("go vet (GOOS=%s): %v", goos, err))
	}
	return b, nil
}

// goCommand returns the go command with args for goos; with -v it prints
// it first (the package list shortened).
func (d *driver) goCommand(opts *options, goos string, args []string) *exec.Cmd {
	if opts.verbose {
		line := strings.Join(args, " ")
		if len(line) > 200 {
			line = fmt.Sprintf("%s… (%d arguments)", line[:200], len(args))
		}
		fmt.Fprintf(d.stderr, "pidlint: GOOS=%s go %s\n", goos, line)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = d.dir
	cmd.Env = append(os.Environ(), "GOOS="+goos)
	return cmd
}

// readErrors reads go vet's standard error: "# pkg" heads a package's
// errors, other lines ("go: …", "pattern …") are general.
func (b *goosBuild) readErrors(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	pkg := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# "):
			pkg = strings.TrimPrefix(line, "# ")
		case strings.TrimSpace(line) == "":
		case pkg != "":
			if b.failed[pkg] == "" {
				b.failed[pkg] = line
			} else {
				b.failed[pkg] += "\n" + line
			}
		default:
			b.general = append(b.general, line)
		}
	}
}

// readJSON reads the JSON trees the tool printed, one per package:
// {"pkg": {"pidlint": [diagnostics] or {"error": "…"}}}.
func (b *goosBuild) readJSON(r io.Reader, files *fileIndex) error {
	dec := json.NewDecoder(r)
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
						b.failed[pkg] = e.Error
						continue
					}
					return fmt.Errorf("reading go vet -json output for %s: %v", pkg, err)
				}
				for _, diag := range diags {
					f, err := newFinding(pkg, b.goos, diag, files)
					if err != nil {
						return err
					}
					b.findings = append(b.findings, f)
				}
			}
		}
	}
}

func newFinding(pkg, goos string, diag vetDiagnostic, files *fileIndex) (finding, error) {
	f := finding{
		pkg:      pkg,
		goos:     []string{goos},
		category: diag.Category,
		message:  diag.Message,
		pos:      parsePosn(diag.Posn),
		end:      parsePosn(diag.End),
	}
	f.rule = vetRule(diag)
	for _, sf := range diag.SuggestedFixes {
		fx := fix{message: sf.Message}
		for _, te := range sf.Edits {
			pos, err := files.position(te.Filename, te.Start)
			if err != nil {
				return f, err
			}
			end, err := files.position(te.Filename, te.End)
			if err != nil {
				return f, err
			}
			fx.edits = append(fx.edits, edit{pos: pos, end: end, newText: te.New})
		}
		f.fixes = append(f.fixes, fx)
	}
	return f, nil
}

// parsePosn parses "file:line:col" (the file name may hold colons).
func parsePosn(s string) token.Position {
	var p token.Position
	rest, col, ok := cutLast(s)
	if !ok {
		p.Filename = s
		return p
	}
	name, line, ok := cutLast(rest)
	if !ok {
		p.Filename = rest
		p.Line = col
		return p
	}
	p.Filename, p.Line, p.Column = name, line, col
	return p
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

// A fileIndex turns byte offsets into lines and columns, reading each file
// once.
type fileIndex struct {
	mu    sync.Mutex
	lines map[string][]int // file name → offsets where its lines start
}

func newFileIndex() *fileIndex { return &fileIndex{lines: make(map[string][]int)} }

func (x *fileIndex) position(name string, offset int) (token.Position, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	starts, ok := x.lines[name]
	if !ok {
		src, err := os.ReadFile(name)
		if err != nil {
			return token.Position{}, fmt.Errorf("reading a fix's file: %v", err)
		}
		starts = []int{0}
		for i, c := range src {
			if c == '\n' {
				starts = append(starts, i+1)
			}
		}
		starts = append(starts, len(src)+1) // sentinel: the end of the file
		x.lines[name] = starts
	}
	if offset < 0 || offset >= starts[len(starts)-1] {
		return token.Position{}, fmt.Errorf("%s: a fix's offset %d is outside the file", name, offset)
	}
	line := sort.SearchInts(starts, offset+1) - 1 // the last line start ≤ offset
	return token.Position{Filename: name, Offset: offset, Line: line + 1, Column: offset - starts[line] + 1}, nil
}

// vetRule is the rule a diagnostic from go vet's JSON reports: its
// category, which is the rule's ID. go vet's JSON drops the diagnostic's
// URL, which names the rule of a -strict (raw-probe) finding, so for those
// the message's "PL00N: " prefix is all there is to read.
func vetRule(diag vetDiagnostic) string {
	if r, ok := analyzer.RuleOf(analysis.Diagnostic{Category: diag.Category}); ok {
		return r.ID
	}
	if id, _, ok := strings.Cut(diag.Message, ": "); ok && diag.Category == analyzer.RawProbe && ruleID(id) {
		return id
	}
	return ""
}
