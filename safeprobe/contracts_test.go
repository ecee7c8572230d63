package safeprobe

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// contractCases are what every per-OS function that takes a process states
// it returns for: a PID no process has, another user's process (EPERM), a
// zombie, and a thread ID.
var contractCases = []string{"no process", "EPERM", "zombie", "thread ID"}

// TestPerOSFunctionsStateTheirContract: a function that several OS files
// of the package define (see doc.go, # Files), and that takes a PID or a
// process, says in each definition what it returns in each of
// contractCases, in rows of its doc comment such as
//
//	no process: NotFound
//	EPERM, zombie: Running
func TestPerOSFunctionsStateTheirContract(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	defs := map[string][]*ast.FuncDecl{}
	fset := token.NewFileSet()
	for _, de := range entries {
		name := de.Name()
		base := strings.TrimSuffix(name, ".go")
		if de.IsDir() || base == name || strings.HasSuffix(base, "_test") || !strings.Contains(base, "_") {
			continue // only the files of an OS set
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil {
				defs[fd.Name.Name] = append(defs[fd.Name.Name], fd)
			}
		}
	}
	checked := 0
	for fn, fds := range defs {
		if len(fds) < 2 || !takesAProcess(fds) {
			continue
		}
		checked++
		for _, fd := range fds {
			stated := contractRows(fd.Doc.Text())
			for _, c := range contractCases {
				if !stated[c] {
					t.Errorf("%s: %s: its doc comment has no row %q (what it returns for it)", fset.Position(fd.Pos()), fn, c+":")
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no per-OS function takes a process: the test finds nothing to check")
	}
}

// takesAProcess reports whether one of the definitions has a parameter
// named pid or want, or of type *os.Process.
func takesAProcess(fds []*ast.FuncDecl) bool {
	for _, fd := range fds {
		for _, field := range fd.Type.Params.List {
			if star, ok := field.Type.(*ast.StarExpr); ok {
				if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Process" {
					return true
				}
			}
			for _, n := range field.Names {
				if n.Name == "pid" || n.Name == "want" {
					return true
				}
			}
		}
	}
	return false
}

// contractRows returns the cases of contractCases that a row of the doc
// comment text states: a line whose text before its first colon is a
// comma-separated list of cases.
func contractRows(text string) map[string]bool {
	stated := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		head, _, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		var cases []string
		for _, c := range strings.Split(head, ",") {
			c = strings.TrimSpace(c)
			known := false
			for _, k := range contractCases {
				known = known || c == k
			}
			if !known {
				cases = nil
				break
			}
			cases = append(cases, c)
		}
		for _, c := range cases {
			stated[c] = true
		}
	}
	return stated
}
