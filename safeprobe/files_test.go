package safeprobe

import (
	"bytes"
	"fmt"
	"go/build"
	"go/build/constraint"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// ports are the GOOS values the go command builds for (go tool dist list).
var ports = []string{"aix", "android", "darwin", "dragonfly", "freebsd", "illumos", "ios", "js",
	"linux", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows"}

// suffixEntry is one entry of the table of file suffixes in doc.go.
type suffixEntry struct {
	suffix     string   // "_flock"
	constraint string   // its //go:build expression; "" for one the go command selects by name
	ports      []string // the ports it builds for, sorted
	files      []string // the non-test files that use it, by the name before the suffix
}

// TestFileSuffixes holds every file of the package to the table of file
// suffixes in doc.go: a file without a suffix has no //go:build line; a
// suffix the go command selects by name has none either; any other has
// exactly the table's line; and each entry's ports and files are what its
// constraint admits and what uses it.
func TestFileSuffixes(t *testing.T) {
	table, err := suffixTable("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range table {
		name, src := "x"+e.suffix+".go", "package p\n"
		if e.constraint != "" {
			name, src = "x.go", "//go:build "+e.constraint+"\n\npackage p\n"
		}
		if got, err := admits(name, []byte(src)); err != nil {
			t.Errorf("doc.go: %s: %v", e.suffix, err)
		} else if !slices.Equal(got, e.ports) {
			t.Errorf("doc.go: %s admits %s; the table says %s", e.suffix, strings.Join(got, " "), strings.Join(e.ports, " "))
		}
	}

	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string][]string{} // suffix → non-test files by prefix
	tested := map[string]bool{}   // suffix → some test file uses it
	for _, de := range entries {
		name := de.Name()
		if de.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		line, err := buildLine(name, src)
		if err != nil {
			t.Error(err)
			continue
		}
		base := strings.TrimSuffix(name, ".go")
		isTest := strings.HasSuffix(base, "_test")
		base = strings.TrimSuffix(base, "_test")
		i := strings.LastIndexByte(base, '_')
		if i < 0 {
			if line != "" {
				t.Errorf("%s: //go:build %s, but no suffix in its name says so (doc.go, # Files)", name, line)
			}
			continue
		}
		prefix, suffix := base[:i], base[i:]
		e, ok := table[suffix]
		switch {
		case !ok:
			t.Errorf("%s: suffix %s is not in the table of suffixes in doc.go (# Files)", name, suffix)
			continue
		case e.constraint == "" && line != "":
			t.Errorf("%s: //go:build %s; the go command selects %s files by name, and the line must not say otherwise", name, line, suffix)
		case e.constraint != "" && line == "":
			t.Errorf("%s: no //go:build line; %s means //go:build %s (doc.go, # Files)", name, suffix, e.constraint)
		case e.constraint != "" && line != e.constraint:
			t.Errorf("%s: //go:build %q; %s means //go:build %s (doc.go, # Files)", name, line, suffix, e.constraint)
		}
		if got, err := admits(name, src); err != nil {
			t.Errorf("%s: %v", name, err)
		} else if !slices.Equal(got, e.ports) {
			t.Errorf("%s builds for %s; %s means %s", name, strings.Join(got, " "), suffix, strings.Join(e.ports, " "))
		}
		if isTest {
			tested[suffix] = true
		} else {
			used[suffix] = append(used[suffix], prefix)
		}
	}
	for suffix, e := range table {
		got := used[suffix]
		slices.Sort(got)
		switch {
		case e.files == nil && !tested[suffix]:
			t.Errorf("doc.go: %s: no file uses it", suffix)
		case !slices.Equal(got, e.files):
			t.Errorf("doc.go: %s: the table names the files %q; they are %q", suffix, e.files, got)
		}
	}
}

// suffixTable reads the table of file suffixes from the package comment
// in file: the code block under the heading "Files", whose entries are
// three lines each: the suffix and its constraint ("by name" for the go
// command's own), its ports ("all but" the ones named, or a list), and the
// files that use it ("(tests only)" for none).
func suffixTable(file string) (map[string]suffixEntry, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return nil, err
	}
	var p comment.Parser
	var code *comment.Code
	heading := false
	for _, b := range p.Parse(f.Doc.Text()).Content {
		switch b := b.(type) {
		case *comment.Heading:
			heading = len(b.Text) == 1 && b.Text[0] == comment.Plain("Files")
		case *comment.Code:
			if heading && code == nil {
				code = b
			}
		}
	}
	if code == nil {
		return nil, fmt.Errorf("%s: no code block under the heading # Files", file)
	}
	lines := strings.Split(strings.TrimSuffix(code.Text, "\n"), "\n")
	if len(lines)%3 != 0 {
		return nil, fmt.Errorf("%s: # Files: %d lines, not three per suffix", file, len(lines))
	}
	table := map[string]suffixEntry{}
	for i := 0; i < len(lines); i += 3 {
		head := strings.Fields(lines[i])
		if len(head) < 2 || !strings.HasPrefix(head[0], "_") || strings.HasPrefix(lines[i+1], "_") || strings.HasPrefix(lines[i+2], "_") {
			return nil, fmt.Errorf("%s: # Files: line %d: want a suffix and its constraint, then two indented lines: %q", file, i+1, lines[i])
		}
		e := suffixEntry{suffix: head[0]}
		if text := strings.Join(head[1:], " "); text != "by name" {
			expr, err := constraint.Parse("//go:build " + text)
			if err != nil {
				return nil, fmt.Errorf("%s: # Files: %s: %v", file, e.suffix, err)
			}
			if e.constraint = expr.String(); e.constraint != text {
				return nil, fmt.Errorf("%s: # Files: %s: write the constraint as gofmt does: %s", file, e.suffix, e.constraint)
			}
		}
		e.ports = strings.Fields(lines[i+1])
		if len(e.ports) > 2 && e.ports[0] == "all" && e.ports[1] == "but" {
			e.ports = allBut(e.ports[2:])
		}
		slices.Sort(e.ports)
		if files := strings.TrimSpace(lines[i+2]); files != "(tests only)" {
			e.files = strings.Fields(files)
			slices.Sort(e.files)
		}
		if _, dup := table[e.suffix]; dup {
			return nil, fmt.Errorf("%s: # Files: %s twice", file, e.suffix)
		}
		table[e.suffix] = e
	}
	return table, nil
}

// buildLine returns the expression of the //go:build line of the file
// (name, src), "" if it has none.
func buildLine(name string, src []byte) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			switch {
			case constraint.IsPlusBuild(c.Text):
				return "", fmt.Errorf("%s: a // +build line; write //go:build", name)
			case constraint.IsGoBuild(c.Text):
				expr, err := constraint.Parse(c.Text)
				if err != nil {
					return "", fmt.Errorf("%s: %v", name, err)
				}
				return expr.String(), nil
			}
		}
	}
	return "", nil
}

// admits returns the ports the go command builds the file (name, src)
// for: its name and its //go:build line, as go/build reads them.
func admits(name string, src []byte) ([]string, error) {
	var got []string
	for _, goos := range ports {
		ctxt := build.Default
		ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = goos, "amd64", false
		if goos == "js" || goos == "wasip1" {
			ctxt.GOARCH = "wasm"
		}
		ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
		ok, err := ctxt.MatchFile(".", name)
		if err != nil {
			return nil, err
		}
		if ok {
			got = append(got, goos)
		}
	}
	return got, nil
}

// allBut returns the ports not in except.
func allBut(except []string) []string {
	var rest []string
	for _, goos := range ports {
		if !slices.Contains(except, goos) {
			rest = append(rest, goos)
		}
	}
	return rest
}
