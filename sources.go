// Package pidlint carries the source of this module's safeprobe package,
// so that the pidlint command can write it into another module
// (pidlint -vendor-safeprobe). The copy is the one compiled into the same
// binary as the analyzer, so it is always the version its fixes call.
package pidlint

import (
	"embed"
	"io/fs"
	"strings"
)

// The pattern also matches the tests: an embed pattern cannot exclude
// them, so SafeprobeSources does.
//
//go:embed safeprobe/*.go
var safeprobeFS embed.FS

//go:embed go.mod
var goMod string

// GoVersion is the go directive of this module's go.mod: the language
// version safeprobe is written and tested for.
func GoVersion() string {
	for line := range strings.Lines(goMod) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Requires returns the version of module path that this module's go.mod
// requires (safeprobe builds and is tested with it), or "" if none.
func Requires(path string) string {
	for line := range strings.Lines(goMod) {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == path {
			return f[1]
		}
	}
	return ""
}

// SafeprobeSources returns the Go files of package safeprobe, without its
// tests, by file name.
func SafeprobeSources() (map[string][]byte, error) {
	entries, err := fs.ReadDir(safeprobeFS, "safeprobe")
	if err != nil {
		return nil, err
	}
	files := make(map[string][]byte)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := fs.ReadFile(safeprobeFS, "safeprobe/"+e.Name())
		if err != nil {
			return nil, err
		}
		files[e.Name()] = b
	}
	return files, nil
}
