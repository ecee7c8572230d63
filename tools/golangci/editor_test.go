package golangci

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The command lines of the editor recipes in docs/editors.md, as the
// editors build them.
var (
	// vscode-go with "go.lintTool": "golangci-lint-v2" lints the package
	// of the saved file: it runs in the file's directory with these
	// flags and no package argument.
	vscodeArgs = []string{"run", "--issues-exit-code=0", "--output.text.print-issued-lines=false",
		"--show-stats=false", "--output.text.path=stdout", "--path-mode=abs"}
	// golangci-lint-langserver runs its configured command in the
	// workspace root with the saved file's directory appended, and keeps
	// the issues whose Pos.Filename is the file, relative to the root.
	langserverArgs = []string{"run", "--output.json.path", "stdout", "--show-stats=false", "--issues-exit-code=1"}
)

// wantEditorLines are the findings testdata/.golangci.yml (strict, PL003
// disabled) gives in testdata/probe/probe.go; tools/golangci/test.sh
// explains each line.
var wantEditorLines = []int{16, 22, 45, 51}

// customGCL returns the golangci-lint binary with the plugin built in,
// which make golangci (tools/golangci/test.sh) builds and names in
// PIDLINT_CUSTOM_GCL.
func customGCL(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("PIDLINT_CUSTOM_GCL")
	if bin == "" {
		t.Skip("PIDLINT_CUSTOM_GCL is not set: make golangci builds bin/custom-gcl and runs this test with it")
	}
	return bin
}

// TestEditorVSCode runs the custom binary as vscode-go runs its lint
// tool on save, and parses the output as vscode-go does: each finding
// must come out as a diagnostic on probe.go's absolute path.
func TestEditorVSCode(t *testing.T) {
	bin := customGCL(t)
	pkgDir, err := filepath.Abs(filepath.Join("testdata", "probe"))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := runEditorCmd(t, pkgDir, 0, bin, vscodeArgs...)
	// vscode-go's runTool reads "file:line:col: message" lines.
	line := regexp.MustCompile(`^((?:.:)?[^:]*):(\d+)(?::(\d+)?)?:(?:\w+:)? (.*)$`)
	var got []int
	for l := range strings.Lines(out) {
		m := line.FindStringSubmatch(strings.TrimRight(l, "\n"))
		if m == nil {
			t.Errorf("vscode-go would drop the line %q", l)
			continue
		}
		if m[1] != filepath.Join(pkgDir, "probe.go") {
			t.Errorf("finding on %q, want the absolute path of probe.go", m[1])
		}
		if !strings.HasSuffix(m[4], "(pidlint)") {
			t.Errorf("not a pidlint finding: %q", m[4])
		}
		n, _ := strconv.Atoi(m[2])
		got = append(got, n)
	}
	if !slices.Equal(got, wantEditorLines) {
		t.Errorf("vscode-go diagnostics on lines %v, want %v\n%s", got, wantEditorLines, out)
	}
}

// TestEditorLangserver runs the custom binary as golangci-lint-langserver
// does when probe.go is saved, and filters the JSON as it does.
func TestEditorLangserver(t *testing.T) {
	bin := customGCL(t)
	root, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	dir, file := filepath.Split(filepath.Join(root, "probe", "probe.go"))
	file = strings.TrimPrefix(filepath.Join(dir, file), root+string(filepath.Separator))
	out, _ := runEditorCmd(t, root, 1, bin, append(slices.Clone(langserverArgs), dir)...)
	var result struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename     string
				Line, Column int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &result); err != nil {
		t.Fatalf("golangci-lint-langserver cannot read the output (%v):\n%s", err, out)
	}
	var got []int
	for _, is := range result.Issues {
		if is.Pos.Filename != file {
			t.Errorf("issue on %q, which the language server would not show on %s", is.Pos.Filename, file)
			continue
		}
		if is.FromLinter != "pidlint" || is.Pos.Column < 1 {
			t.Errorf("issue %+v", is)
		}
		got = append(got, is.Pos.Line)
	}
	if !slices.Equal(got, wantEditorLines) {
		t.Errorf("language server diagnostics on lines %v, want %v\n%s", got, wantEditorLines, out)
	}
}

// TestEditorDoc checks that docs/editors.md gives the command lines these
// tests run.
func TestEditorDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "editors.md"))
	if err != nil {
		t.Fatal(err)
	}
	quoted := make([]string, len(langserverArgs))
	for i, a := range langserverArgs {
		quoted[i] = strconv.Quote(a)
	}
	for _, s := range []string{
		`"go.lintTool": "golangci-lint-v2"`,
		`"golangci-lint-v2": `,
		strings.Join(quoted, ", "),
		strings.Join(vscodeArgs, " "),
	} {
		if !bytes.Contains(doc, []byte(s)) {
			t.Errorf("docs/editors.md does not show %s", s)
		}
	}
}

// runEditorCmd runs bin with args in dir, offline, and returns its
// standard output; it fails the test unless bin exits with want.
func runEditorCmd(t *testing.T, dir string, want int, bin string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != want {
		t.Fatalf("%s %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", bin, strings.Join(args, " "), code, want, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}
