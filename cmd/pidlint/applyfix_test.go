package main

import (
	"bytes"
	"go/token"
	"path/filepath"
	"testing"
)

// TestApplyFixes applies fixes the way the analyzer writes them: a fix
// whose import insertion sits at the start of its own deletion of an
// unused import, a second fix carrying the same import edits, and a third
// that overlaps the first and is left for a hand.
func TestApplyFixes(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.go")
	src := "import (\n\t\"syscall\"\n)\n\nvar a = kill(1)\nvar b = kill(2)\n"
	writeFile(t, name, src)
	off := func(s string) int { return bytes.Index([]byte(src), []byte(s)) }
	at := func(o int) token.Position { return token.Position{Filename: name, Offset: o} }
	imports := []edit{
		{pos: at(off("\t\"syscall\"")), end: at(off("\t\"syscall\"")), newText: "\t\"safeprobe\"\n"},
		{pos: at(off("\t\"syscall\"")), end: at(off(")\n\nvar")), newText: ""},
	}
	call := func(s, with string) edit { return edit{pos: at(off(s)), end: at(off(s) + len(s)), newText: with} }
	findings := []finding{
		{pos: at(off("kill(1)")), message: "one", fixes: []fix{{message: "Use safeprobe.Alive", edits: append(imports[:2:2], call("kill(1)", "alive(1)"))}}},
		{pos: at(off("kill(2)")), message: "two", fixes: []fix{{message: "Use safeprobe.Alive", edits: append(imports[:2:2], call("kill(2)", "alive(2)"))}}},
		{pos: at(off("kill(1)")), message: "three", fixes: []fix{{message: "Other", edits: []edit{call("kill(1)", "other(1)")}}}},
		{pos: at(off("kill(2)")), message: "no fix"},
	}
	var stdout, stderr bytes.Buffer
	res, err := applyFixes(findings, dir, false, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	want := "import (\n\t\"safeprobe\"\n)\n\nvar a = alive(1)\nvar b = alive(2)\n"
	if got := readFile(t, name); got != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	if res.fixed != 2 || res.files != 1 || len(res.left) != 2 || res.left[0].message != "three" || res.left[1].message != "no fix" {
		t.Errorf("result: fixed %d in %d files, left %v", res.fixed, res.files, res.left)
	}
}
