package goos

import (
	"go/parser"
	"go/token"
	"testing"
)

func TestOfFile(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      Set
	}{
		{"p.go", "package p", All},
		{"p_windows.go", "package p", Windows},
		{"p_windows_test.go", "package p", Windows},
		{"p_linux_arm64.go", "package p", Linux},
		{"p_darwin.go", "package p", Of("darwin", "ios")},
		{"p_arm64.go", "package p", All},
		// Not constraints: _unix, _posix and _other are ordinary names,
		// and a file named just "linux.go" has no suffix.
		{"p_unix.go", "package p", All},
		{"p_posix.go", "package p", All},
		{"p_other.go", "package p", All},
		{"linux.go", "package p", All},
		{"p.go", "//go:build windows\n\npackage p", Windows},
		{"p.go", "//go:build !windows\n\npackage p", All &^ Windows},
		{"p.go", "//go:build unix\n\npackage p", Unix},
		{"p.go", "//go:build linux && darwin\n\npackage p", 0},
		{"p.go", "//go:build linux || darwin\n\npackage p", Of("linux", "android", "darwin", "ios")},
		{"p.go", "//go:build amd64 && arm64\n\npackage p", 0},
		{"p.go", "//go:build linux && cgo\n\npackage p", Linux},
		{"p.go", "//go:build !linux && !cgo && cgo\n\npackage p", 0},
		{"p.go", "//go:build (darwin || freebsd) && !ios\n\npackage p", Of("darwin", "freebsd")},
		{"p_windows.go", "//go:build !windows\n\npackage p", 0},
		{"p_linux.go", "//go:build unix\n\npackage p", Linux},
		// The go command reads "//+build" without the space too, but
		// not a +build line in the package doc comment.
		{"p.go", "//+build windows\n\npackage p", Windows},
		{"p.go", "// +build windows\npackage p", All},
		{"p.go", "/* x */\n//go:build windows\npackage p", Windows},
		{"p.go", "// +build windows\n\npackage p", Windows},
		{"p.go", "// +build linux darwin\n// +build !android\n\npackage p", Of("linux", "darwin", "ios")},
		// A constraint after the package clause is not one.
		{"p.go", "package p\n\n//go:build windows\n", All},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.name, tc.src, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		if got := OfFile(fset, tc.name, f); got != tc.want {
			t.Errorf("OfFile(%s, %q) = %v, want %v", tc.name, tc.src, got, tc.want)
		}
	}
}

func TestString(t *testing.T) {
	if got, want := Of("windows", "darwin").String(), "darwin, windows"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got := Set(0).String(); got != "no OS" {
		t.Errorf("empty String = %q", got)
	}
}

// FuzzOfFile checks that any file name and header is read without panic,
// and that the result never admits an OS that the name alone excludes.
func FuzzOfFile(f *testing.F) {
	f.Add("p_windows.go", "//go:build !windows\n\npackage p")
	f.Add("p_linux_amd64_test.go", "//go:build (linux || darwin) && !cgo\n\npackage p")
	f.Add("x.go", "// +build a b c d e f g h i j k l m n\n\npackage p")
	f.Add("_.go", "//go:build unix && !(ios || android)\npackage p")
	f.Fuzz(func(t *testing.T, name, src string) {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			return
		}
		if got := OfFile(fset, name, file); got&^FromName(name) != 0 || got&^All != 0 {
			t.Fatalf("OfFile(%q) = %v outside FromName %v", name, got, FromName(name))
		}
	})
}
