package analyzer

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

// fileState is what the runner knows and has found in one file.
type fileState struct {
	file     *ast.File
	tf       *token.File
	os       goos.Set // the OSes the file builds for
	findings []*finding
	read     func(string) ([]byte, error) // the pass's ReadFile
	src      []byte                       // read on demand, for fix texts
}

// A finding is a diagnostic before suppression and import fix-up.
type finding struct {
	rule     string
	rawProbe bool // reported only with -strict, category raw-probe
	// everywhere: wrong wherever the code runs on an OS it builds for,
	// however its result is handled (Signal(0) on Windows).
	everywhere bool
	hidden     bool // not reported: a raw probe outside -strict, or a disabled rule
	pos, end   token.Pos
	msg        string
	fix        *fixPlan
}

// source returns the text of n as written, or as printed when the file
// cannot be read.
func (fs *fileState) source(n ast.Node) string {
	if !fs.readSource() {
		return types.ExprString(n.(ast.Expr))
	}
	return string(fs.src[fs.tf.Offset(n.Pos()):fs.tf.Offset(n.End())])
}

// sourceRange returns the text between pos and end as written, or "".
func (fs *fileState) sourceRange(pos, end token.Pos) string {
	if !fs.readSource() {
		return ""
	}
	return string(fs.src[fs.tf.Offset(pos):fs.tf.Offset(end)])
}

// readSource reads the file's source, once; it reports whether it has it.
func (fs *fileState) readSource() bool {
	if fs.src == nil {
		src, err := fs.read(fs.tf.Name())
		if err != nil || len(src) != fs.tf.Size() {
			return false
		}
		fs.src = src
	}
	return true
}

// blankLine reports whether line of the file holds only white space.
func (fs *fileState) blankLine(line int) bool {
	if line < 1 || line > fs.tf.LineCount() || !fs.readSource() {
		return false
	}
	start := fs.tf.Offset(fs.tf.LineStart(line))
	end := len(fs.src)
	if line < fs.tf.LineCount() {
		end = fs.tf.Offset(fs.tf.LineStart(line + 1))
	}
	return len(bytes.TrimSpace(fs.src[start:end])) == 0
}

// pkgNameIn returns the name under which the file imports path, or "".
func (fs *fileState) pkgNameIn(info *types.Info, path string) string {
	for _, spec := range fs.file.Imports {
		if importPath(spec) == path {
			if pn := info.PkgNameOf(spec); pn != nil && pn.Name() != "_" && pn.Name() != "." {
				return pn.Name()
			}
		}
	}
	return ""
}

func importPath(spec *ast.ImportSpec) string {
	p, _ := strconv.Unquote(spec.Path.Value)
	return p
}
