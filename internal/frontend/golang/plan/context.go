package plan

import (
	"go/build"
	"os"
	"runtime"
	"strings"
)

// BuildsFor reports whether the file name in dir builds for goos, as the
// go command decides: the host's architecture, the -tags of $GOFLAGS, cgo
// only on the host (the go command turns it off when cross-compiling).
func BuildsFor(goos, dir, name string) bool {
	ctx := build.Default
	ctx.GOOS = goos
	ctx.BuildTags = goflagsTags()
	if goos != runtime.GOOS {
		ctx.CgoEnabled = false
	}
	ok, err := ctx.MatchFile(dir, name)
	return err == nil && ok
}

// goflagsTags returns the tags of -tags in $GOFLAGS: a file they exclude
// is not in the go command's build, and a package with no other file for
// a GOOS would fail that GOOS's whole go vet run.
func goflagsTags() []string {
	var tags []string
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if v, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), "tags="); ok && f[0] == '-' {
			tags = strings.FieldsFunc(v, func(r rune) bool { return r == ',' })
		}
	}
	return tags
}
