package vettool

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pidlint/pidlint/analyzer"
	"golang.org/x/tools/go/gcexportdata"
)

// The types-only answer to a facts-only run: the vetx file go vet asks of
// every dependency, written from its declarations.

// vetConfig is the part of the go command's vet.cfg that the facts-only
// shortcut reads (unitchecker.Config holds the rest).
type vetConfig struct {
	ImportPath  string
	GoFiles     []string
	GoVersion   string
	ImportMap   map[string]string
	PackageVetx map[string]string
	VetxOnly    bool
	VetxOutput  string
}

// The vetx file unitchecker reads for each import: "vetx", the lengths of
// the two parts (little-endian uint32), the package's types in indexed
// export format, its gob-encoded facts (empty: none).
const (
	vetxMagic     = "vetx"
	vetxHeaderLen = 12
)

// writeTypesOnlyVetx handles a facts-only run (a dependency of the
// packages go vet reports on) when the package cannot export a fact or
// report anything: none of its files names a probe and none of its
// imports has facts. It
// then writes the vetx file from the package's declarations alone,
// without checking function bodies or running the analyzer, and reports
// true. Otherwise it reports false and unitchecker does the run.
func writeTypesOnlyVetx(cfgFile string) bool {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return false
	}
	var cfg vetConfig
	if json.Unmarshal(data, &cfg) != nil || !cfg.VetxOnly || cfg.VetxOutput == "" || len(cfg.GoFiles) == 0 {
		return false
	}
	for _, vetx := range cfg.PackageVetx {
		if n, ok := vetxFactsLen(vetx); !ok || n > 0 {
			return false
		}
	}
	fset := token.NewFileSet()
	var files []*ast.File
	srcs := make([][]byte, len(cfg.GoFiles))
	for i, name := range cfg.GoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return false
		}
		srcs[i] = src
	}
	// Nothing to report either: the go command may replay this run when
	// the package is later vetted itself (reporting.go).
	if analyzer.MayExportFacts(srcs...) || slices.ContainsFunc(srcs, analyzer.MayReport) {
		return false
	}
	for i, name := range cfg.GoFiles {
		f, err := parser.ParseFile(fset, name, srcs[i], parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		files = append(files, f)
	}
	pkg, ok := checkDeclarations(fset, &cfg, files)
	if !ok {
		return false
	}
	var buf bytes.Buffer
	buf.WriteString(vetxMagic)
	buf.Write(make([]byte, 8))
	if err := gcexportdata.Write(&buf, fset, pkg); err != nil {
		return false
	}
	// gcexportdata.Write leads with the format byte 'i'; vetx holds the
	// indexed data without it.
	out := append(buf.Bytes()[:vetxHeaderLen:vetxHeaderLen], buf.Bytes()[vetxHeaderLen+1:]...)
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-vetxHeaderLen))
	binary.LittleEndian.PutUint32(out[8:12], 0)
	return os.WriteFile(cfg.VetxOutput, out, 0o666) == nil
}

// checkDeclarations type-checks the package's declarations against its
// imports' vetx files. Function bodies are skipped: importers see only
// declarations. It reports false on any error but an unused import or
// variable, which only the bodies would use.
func checkDeclarations(fset *token.FileSet, cfg *vetConfig, files []*ast.File) (*types.Package, bool) {
	imports := make(map[string]*types.Package)
	importer := importerFunc(func(importPath string) (*types.Package, error) {
		path, ok := cfg.ImportMap[importPath]
		if !ok {
			return nil, os.ErrNotExist
		}
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		if pkg, ok := imports[path]; ok && pkg.Complete() {
			return pkg, nil
		}
		typesData, err := vetxTypes(cfg.PackageVetx[path])
		if err != nil {
			return nil, err
		}
		return gcexportdata.Read(io.MultiReader(strings.NewReader("i"), bytes.NewReader(typesData)), fset, imports, path)
	})
	hardError := false
	tc := &types.Config{
		Importer:         importer,
		Sizes:            types.SizesFor("gc", build.Default.GOARCH),
		GoVersion:        cfg.GoVersion,
		IgnoreFuncBodies: true,
		Error: func(err error) {
			if te, ok := err.(types.Error); !ok || !te.Soft {
				hardError = true
			}
		},
	}
	pkg, _ := tc.Check(cfg.ImportPath, fset, files, nil)
	return pkg, !hardError
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// vetxFactsLen returns the length of the facts in a vetx file, from its
// header.
func vetxFactsLen(name string) (uint32, bool) {
	f, err := os.Open(name)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var h [vetxHeaderLen]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:4]) != vetxMagic {
		return 0, false
	}
	return binary.LittleEndian.Uint32(h[8:12]), true
}

// vetxTypes returns the export data in a vetx file.
func vetxTypes(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if len(data) < vetxHeaderLen || string(data[:4]) != vetxMagic {
		return nil, &os.PathError{Op: "read", Path: name, Err: os.ErrInvalid}
	}
	n := binary.LittleEndian.Uint32(data[4:8])
	if uint64(vetxHeaderLen)+uint64(n) > uint64(len(data)) {
		return nil, &os.PathError{Op: "read", Path: name, Err: os.ErrInvalid}
	}
	return data[vetxHeaderLen : vetxHeaderLen+n], nil
}
