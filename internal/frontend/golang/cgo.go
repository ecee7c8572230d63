package golang

// Fixes in files that import "C". The analyzer sees the file cgo
// generated from the user's file, and its edits are offsets there. cgo
// keeps the user's lines and columns, saying so with //line comments
// (a /*line :9:30*/ around each C name it rewrites), so an edit maps back
// by line and column; it is kept only where the text it changes, or the
// line it inserts on, is the same in both files.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/gocmd"
	"github.com/pidlint/pidlint/internal/source"
)

// cgoFiles finds the files cgo generated for a build: go vet does not
// say, but go list -compiled names them in the build cache.
type cgoFiles struct {
	goCmd *gocmd.Runner
	goos  string
	mu    sync.Mutex
	byDir map[string][]string // package directory → its compiled files
}

func newCgoFiles(goCmd *gocmd.Runner, goos string) *cgoFiles {
	return &cgoFiles{goCmd: goCmd, goos: goos, byDir: make(map[string][]string)}
}

// generated returns the file cgo generated from the user's file name.
func (c *cgoFiles) generated(name string) (string, error) {
	dir := filepath.Dir(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	files, ok := c.byDir[dir]
	if !ok {
		cmd := c.goCmd.Command(c.goos, "list", "-e", "-compiled", "-json=CompiledGoFiles", ".")
		cmd.Dir = dir
		out, err := cmd.Output()
		var p struct{ CompiledGoFiles []string }
		if err == nil {
			err = json.Unmarshal(out, &p)
		}
		if err != nil {
			return "", fmt.Errorf("finding the file cgo generates from %s: go list -compiled: %v", name, err)
		}
		files = p.CompiledGoFiles
		c.byDir[dir] = files
	}
	directive := []byte("//line " + name + ":1:1\n")
	for _, f := range files {
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		if f == name {
			continue
		}
		if head, err := readHead(f, 512); err == nil && bytes.Contains(head, directive) {
			return f, nil
		}
	}
	return "", fmt.Errorf("no file cgo generated from %s", name)
}

// mapGenerated maps the edit [start, end) of the file gen, which cgo
// generated, to the user's file its //line comments name.
func mapGenerated(src *source.Cache, gen string, start, end int) (pos, endPos finding.Position, err error) {
	g, err := src.File(gen)
	if err != nil {
		return pos, endPos, err
	}
	if start < 0 || end < start || end > len(g.Data) {
		return pos, endPos, fmt.Errorf("an edit at %d..%d is outside %s", start, end, gen)
	}
	// The parser applies the //line comments to the file's positions.
	fset := token.NewFileSet()
	if _, err := parser.ParseFile(fset, gen, g.Data, parser.ParseComments|parser.SkipObjectResolution); err != nil {
		return pos, endPos, err
	}
	var tf *token.File
	fset.Iterate(func(f *token.File) bool { tf = f; return false })
	at := func(offset int) (finding.Position, error) {
		p := tf.Position(tf.Pos(offset))
		return src.At(p.Filename, p.Line, p.Column)
	}
	if pos, err = at(start); err != nil {
		return pos, endPos, err
	}
	if endPos, err = at(end); err != nil {
		return pos, endPos, err
	}
	user, err := src.File(pos.File)
	if err != nil {
		return pos, endPos, err
	}
	same := end > start && bytes.Equal(g.Data[start:end], user.Data[pos.Offset:endPos.Offset])
	if end == start {
		same = bytes.Equal(lineAt(g.Data, start), lineAt(user.Data, pos.Offset))
	}
	if !same || endPos.File != pos.File {
		return pos, endPos, fmt.Errorf("it changes code cgo rewrote in %s", filepath.Base(pos.File))
	}
	return pos, endPos, nil
}

// lineAt is the line of data holding offset.
func lineAt(data []byte, offset int) []byte {
	start := bytes.LastIndexByte(data[:offset], '\n') + 1
	end := bytes.IndexByte(data[offset:], '\n')
	if end < 0 {
		return data[start:]
	}
	return data[start : offset+end]
}

// readHead reads the first n bytes of the file name, or all of a
// shorter one.
func readHead(name string, n int) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	m, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:m], err
}
