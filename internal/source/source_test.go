package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestColumn16 checks the UTF-16 column of positions on a line with
// characters of one, two and four bytes (é is one UTF-16 unit, 😀 two),
// reached by offset and by line and byte column alike.
func TestColumn16(t *testing.T) {
	src := "package p\n\nvar s = \"é😀\"; var x = 1\n"
	name := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := NewCache()
	off := strings.Index(src, "x = 1")
	byOffset, err := c.Offset(name, off)
	if err != nil {
		t.Fatal(err)
	}
	// `var s = "é😀"; var ` is 22 bytes and 19 UTF-16 units.
	if byOffset.Line != 3 || byOffset.Column != 23 || byOffset.Column16 != 20 {
		t.Errorf("Offset(%d) = line %d, column %d, UTF-16 column %d; want 3, 23, 20", off, byOffset.Line, byOffset.Column, byOffset.Column16)
	}
	byLine, err := c.At(name, 3, 23)
	if err != nil || byLine != byOffset {
		t.Errorf("At(3, 23) = %+v, %v; want %+v", byLine, err, byOffset)
	}
	if p, err := c.Offset(name, len(src)); err != nil || p.Line != 4 || p.Column != 1 {
		t.Errorf("Offset(end of file) = %+v, %v", p, err)
	}
}

// TestOutside checks that positions outside the file are errors naming
// it, not positions.
func TestOutside(t *testing.T) {
	name := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(name, []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := NewCache()
	for _, tc := range []struct {
		what string
		err  func() error
	}{
		{"offset -1", func() error { _, err := c.Offset(name, -1); return err }},
		{"offset past the end", func() error { _, err := c.Offset(name, 11); return err }},
		{"line 3", func() error { _, err := c.At(name, 3, 1); return err }},
		{"column past the line", func() error { _, err := c.At(name, 1, 12); return err }},
	} {
		if err := tc.err(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v, want one naming %s", tc.what, err, name)
		}
	}
}

// TestCgo checks which files are cgo's to rewrite.
func TestCgo(t *testing.T) {
	dir := t.TempDir()
	c := NewCache()
	for src, want := range map[string]bool{
		"package p\n\n// #include <unistd.h>\nimport \"C\"\n":             true,
		"package p\n\nimport (\n\t\"os\"\n\t\"C\"\n)\n":                   true,
		"package p\n\nimport \"os\"\n\nvar _ = os.Args // import \"C\"\n": false,
	} {
		name := filepath.Join(dir, strings.Repeat("x", len(src))+".go")
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := c.File(name)
		if err != nil {
			t.Fatal(err)
		}
		if f.Cgo() != want {
			t.Errorf("Cgo() = %v for\n%s", !want, src)
		}
	}
}
