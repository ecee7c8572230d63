package pidflow

import (
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// buildSSA builds the package's SSA form, as the buildssa pass does, but
// only for the packages the flow follows: buildssa would build every
// package the analyzer runs on. Packages it imports are created from
// their types alone, the direct imports only, as buildssa does. A failure of the builder is an error, not a crash.
func buildSSA(pass *analysis.Pass) (pkg *ssa.Package, err error) {
	defer func() {
		if r := recover(); r != nil {
			pkg, err = nil, fmt.Errorf("SSA builder: %v", r)
		}
	}()
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg = prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	return pkg, nil
}

// inGOROOT reports whether the package is the standard library's (its
// files are under GOROOT): the flow knows the functions of std it
// follows by name, so it neither follows std nor asks for its facts.
func inGOROOT(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	for _, root := range []string{build.Default.GOROOT, os.Getenv("GOROOT")} {
		if root != "" && strings.HasPrefix(name, filepath.Join(root, "src")+string(filepath.Separator)) {
			return true
		}
	}
	return strings.Contains(filepath.ToSlash(name), "/golang.org/toolchain@")
}
