// Package pidlint carries the source of safeprobe, so that the pidlint
// command can write it into another module (pidlint -vendor-safeprobe).
// The copy is the one compiled into the same binary as the analyzer, so it
// is always the version its fixes call.
package pidlint

import (
	_ "embed"
	"strings"
	"sync"

	"golang.org/x/tools/txtar"
)

// safeprobe/ is a module of its own, at an older go line than this one,
// and //go:embed cannot reach into another module: safeprobe.txtar is a
// generated copy of its go.mod and Go files.
//
//go:generate go run gen_safeprobe.go
//go:embed safeprobe.txtar
var safeprobeTxtar []byte

var safeprobeArchive = sync.OnceValue(func() *txtar.Archive { return txtar.Parse(safeprobeTxtar) })

// safeprobeGoMod is safeprobe's go.mod.
func safeprobeGoMod() string {
	for _, f := range safeprobeArchive().Files {
		if f.Name == "go.mod" {
			return string(f.Data)
		}
	}
	return ""
}

// GoVersion is the go directive of safeprobe's go.mod: the language
// version safeprobe is written and tested for.
func GoVersion() string {
	for line := range strings.Lines(safeprobeGoMod()) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Requires returns the version of module path that safeprobe's go.mod
// requires (the lowest safeprobe builds and is tested with), or "" if
// none.
func Requires(path string) string {
	for line := range strings.Lines(safeprobeGoMod()) {
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
	files := make(map[string][]byte)
	for _, f := range safeprobeArchive().Files {
		if strings.HasSuffix(f.Name, ".go") {
			files[f.Name] = f.Data
		}
	}
	return files, nil
}
