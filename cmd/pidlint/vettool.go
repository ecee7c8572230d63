package main

// This file is pidlint as a vet tool: the protocol go vet and go fix
// speak (-V=full, -flags, then one run per package with a vet.cfg), and a
// cheap answer for the facts-only runs go vet makes on every dependency.

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
	"strings"

	"golang.org/x/tools/go/gcexportdata"
)

// isVetToolCall reports whether args are go vet's or go fix's call of a
// vet tool: a lone version or flags query, or flags and a vet.cfg file.
func isVetToolCall(args []string) bool {
	// go vet asks for -V=full; -V and -version are the driver's.
	if len(args) == 1 && (args[0] == "-flags" || args[0] == "-V=full") {
		return true
	}
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return false
	}
	for _, a := range args[:len(args)-1] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

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

// factWords are the identifiers without which a package declares no
// wrapper of a probe, and so exports no fact: a wrapper calls kill(2) or
// Process.Signal, or another wrapper (whose package then has facts).
var factWords = [][]byte{[]byte("Kill"), []byte("Signal")}

// mayDeclareWrapper reports whether src names what a probe wrapper calls.
func mayDeclareWrapper(src []byte) bool {
	for _, w := range factWords {
		if bytes.Contains(src, w) {
			return true
		}
	}
	return false
}

// writeTypesOnlyVetx handles a facts-only run (a dependency of the
// packages go vet reports on) when the package cannot export a fact:
// none of its files names a probe and none of its imports has facts. It
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
	for _, name := range cfg.GoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return false
		}
		if mayDeclareWrapper(src) {
			return false
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
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
