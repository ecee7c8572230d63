package goos

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestCannotBuild checks which packages the standard library's sources
// prove cannot build for windows, and that code the windows port has
// passes.
func TestCannotBuild(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"p_unix.go", "package p\nimport \"syscall\"\nfunc f() error { return syscall.Kill(1, 0) }", true},
		{"p.go", "package p\nimport \"syscall\"\nvar s = syscall.SIGUSR1", true},
		{"p.go", "package p\nimport _ \"golang.org/x/sys/unix\"", true},
		// Windows has these.
		{"p.go", "package p\nimport \"syscall\"\nvar s = syscall.Signal(0)\nvar e = syscall.EPERM", false},
		{"p.go", "package p\nimport _ \"os\"", false},
		// The file does not build for windows: what it names says nothing.
		{"p_linux.go", "package p\nimport \"syscall\"\nfunc f() error { return syscall.Kill(1, 0) }", false},
		{"p.go", "//go:build unix\n\npackage p\nimport \"syscall\"\nfunc f() error { return syscall.Kill(1, 0) }", false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.name, tc.src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{Uses: make(map[*ast.Ident]types.Object)}
		conf := types.Config{Importer: importer.Default(), Error: func(error) {}}
		conf.Check("p", fset, []*ast.File{f}, info)
		var std Std
		if got := std.CannotBuild(fset, info, []*ast.File{f}, "windows"); got != tc.want {
			t.Errorf("%s %q: CannotBuild(windows) = %v, want %v", tc.name, tc.src, got, tc.want)
		}
	}
}

func BenchmarkDeclared(b *testing.B) {
	for b.Loop() {
		var std Std
		if names, ok := std.declared("windows", "syscall"); !ok || names["Kill"] || !names["Signal"] {
			b.Fatal(ok, names["Kill"], names["Signal"])
		}
	}
}
