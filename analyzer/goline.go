package analyzer

import (
	"go/ast"
	"go/version"

	"golang.org/x/tools/go/analysis"
)

// goLine is the Go version a file is compiled for, as "go1.N": its own
// //go:build goN constraint or its module's go line (types.Info.FileVersions
// holds whichever applies), else pass.Module's go line. It is "" when
// neither is known (GOPATH mode).
func goLine(pass *analysis.Pass, file *ast.File) string {
	if v := pass.TypesInfo.FileVersions[file]; v != "" {
		return version.Lang(v)
	}
	if pass.Module != nil && pass.Module.GoVersion != "" {
		return version.Lang("go" + pass.Module.GoVersion)
	}
	return ""
}

// goAtLeast reports whether the file is known to be compiled for Go v
// ("go1.23") or later.
func goAtLeast(pass *analysis.Pass, file *ast.File, v string) bool {
	line := goLine(pass, file)
	return line != "" && version.Compare(line, v) >= 0
}

// goBefore reports whether the file is known to be compiled for a Go
// release older than v.
func goBefore(pass *analysis.Pass, file *ast.File, v string) bool {
	line := goLine(pass, file)
	return line != "" && version.Compare(line, v) < 0
}
