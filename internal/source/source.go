// Package source reads the user's source files for every stage of a run,
// each file once: positions from a byte offset or a line and column, with
// the UTF-16 column SARIF counts in; the code a baseline entry names; the
// text a fix edits.
package source

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pidlint/pidlint/internal/finding"
)

// A Cache holds the files read so far. It is safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	files map[string]*File
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{files: make(map[string]*File)} }

// A File is one source file as read.
type File struct {
	Name  string
	Data  []byte
	lines []int // offsets where lines start

	cgoOnce sync.Once
	cgo     bool
}

// File returns the file name, reading it on first use.
func (c *Cache) File(name string) (*File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.files[name]; ok {
		return f, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f := &File{Name: name, Data: data, lines: []int{0}}
	for i, b := range data {
		if b == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	c.files[name] = f
	return f, nil
}

// Offset returns the position at byte offset of the file name.
func (c *Cache) Offset(name string, offset int) (finding.Position, error) {
	f, err := c.File(name)
	if err != nil {
		return finding.Position{}, err
	}
	return f.Offset(offset)
}

// At returns the position at line and byte column of the file name.
func (c *Cache) At(name string, line, col int) (finding.Position, error) {
	f, err := c.File(name)
	if err != nil {
		return finding.Position{}, err
	}
	return f.At(line, col)
}

// Offset returns the position at a byte offset; the end of the file is one.
func (f *File) Offset(offset int) (finding.Position, error) {
	if offset < 0 || offset > len(f.Data) {
		return finding.Position{}, fmt.Errorf("%s: offset %d is outside the file (%d bytes)", f.Name, offset, len(f.Data))
	}
	line := sort.SearchInts(f.lines, offset+1) - 1 // the last line start ≤ offset
	return f.position(line, offset), nil
}

// At returns the position at a line and byte column (both from 1).
func (f *File) At(line, col int) (finding.Position, error) {
	if line < 1 || line > len(f.lines) {
		return finding.Position{}, fmt.Errorf("%s: line %d is outside the file (%d lines)", f.Name, line, len(f.lines))
	}
	start := f.lines[line-1]
	end := len(f.Data)
	if line < len(f.lines) {
		end = f.lines[line] - 1 // the newline
	}
	if col < 1 || start+col-1 > end {
		return finding.Position{}, fmt.Errorf("%s:%d: column %d is outside the line", f.Name, line, col)
	}
	return f.position(line-1, start+col-1), nil
}

// position is the position at offset on the 0-based line.
func (f *File) position(line, offset int) finding.Position {
	start := f.lines[line]
	col16 := 1
	for s := f.Data[start:offset]; len(s) > 0; {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		col16 += max(utf16.RuneLen(r), 1)
	}
	return finding.Position{File: f.Name, Offset: offset, Line: line + 1, Column: offset - start + 1, Column16: col16}
}

// Cgo reports whether the file imports "C": cgo rewrites it, and the
// analyzer sees the rewritten file, whose offsets are not this file's.
func (f *File) Cgo() bool {
	f.cgoOnce.Do(func() {
		ast, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.ImportsOnly)
		if err != nil {
			return
		}
		for _, spec := range ast.Imports {
			f.cgo = f.cgo || spec.Path.Value == `"C"`
		}
	})
	return f.cgo
}

// WriteFile replaces name with data through a temporary file in the same
// directory, so that a reader sees the old or the new file, never a torn
// one. A new file gets mode 0644; an existing one keeps its mode.
func WriteFile(name string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".pidlint-*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), mode)
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
