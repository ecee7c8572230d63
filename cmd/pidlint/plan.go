package main

// This file decides which packages each GOOS build beyond the first needs:
// the builds of a package differ only in its GOOS-constrained files, so a
// package needs the build for a GOOS only when one of its files for that
// GOOS does not build for the first GOOS and names something a rule looks
// at. Most packages have no such file, and most runs need no other build.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/build"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// A listedPackage is what go list -find says of a package.
type listedPackage struct {
	Dir                                          string
	ImportPath                                   string
	GoFiles, CgoFiles, TestGoFiles, XTestGoFiles []string
}

// listPackages lists the packages patterns match for goos, without
// loading their dependencies.
func (d *driver) listPackages(opts *options, goos string, patterns []string) ([]listedPackage, error) {
	args := append([]string{"list", "-e", "-find", "-json=Dir,ImportPath,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles"}, patterns...)
	cmd := d.goCommand(opts, goos, args)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// probeCall finds the calls some rule looks at: syscall.Kill(pid, sig),
// p.Signal(sig), os.FindProcess(pid), the Syscall family (SYS_KILL), a
// "/proc path and exec.Command. A file without any holds no finding (but
// for calls of wrappers declared elsewhere; see packagesFor). Calls, not
// names: "os.Signal", "cobra.Command", "CleanOnSignal()" and
// ".../process" are everywhere and probe nothing.
var probeCall = regexp.MustCompile("(\\w*)\\.(Kill|Signal|FindProcess)\\(\\s*[^)\\s]|Syscall|[\"`]/proc|exec\\.Command")

// probeProgram matches a string constant PL005 may take for a probe: a
// program it knows ("ps", "/bin/kill", "pgrep.exe"), a tasklist filter
// ("PID eq N") or a script running one ("kill -0 $pid", "ps -p").
var probeProgram = regexp.MustCompile(`(?i)^(.*[/\\])?(kill|ps|pgrep|pkill|lsof)(\.exe)?$|pid eq|\b(kill|ps|pkill|lsof)\s|\bpgrep\b`)

// runsProbeProgram reports whether a string literal in src is one
// probeProgram matches: an exec.Command without one runs no probe (the
// rule looks only at constants). Words in comments and names, such as a
// variable ps or a function pgrep, are not.
func runsProbeProgram(src []byte) bool {
	fset := token.NewFileSet()
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	for {
		_, tok, lit := sc.Scan()
		switch tok {
		case token.EOF:
			return false
		case token.STRING:
			if v, err := strconv.Unquote(lit); err == nil && probeProgram.MatchString(v) {
				return true
			}
		}
	}
}

// mayHoldProbe reports whether src calls something a rule looks at.
func mayHoldProbe(src []byte) bool {
	for _, m := range probeCall.FindAllSubmatch(src, -1) {
		switch {
		case bytes.Equal(m[0], []byte("exec.Command")):
			if runsProbeProgram(src) {
				return true
			}
		case len(m[1]) > 0 && bytes.Equal(m[2], []byte("Signal")) &&
			(bytes.Equal(m[1], []byte("syscall")) || bytes.Equal(m[1], []byte("unix"))):
			// syscall.Signal(n) converts; it signals nothing.
		default:
			return true
		}
	}
	return false
}

// buildContext is go/build's view of a GOOS build: the host's
// architecture, the build tags GOFLAGS gives the go command, cgo only on
// the host (the go command turns it off when cross-compiling).
func buildContext(goos string) *build.Context {
	ctx := build.Default
	ctx.GOOS = goos
	ctx.BuildTags = goflagsTags()
	if goos != runtime.GOOS {
		ctx.CgoEnabled = false
	}
	return &ctx
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

// buildsFor reports whether the file name in dir builds for goos.
func buildsFor(goos, dir, name string) bool {
	ok, err := buildContext(goos).MatchFile(dir, name)
	return err == nil && ok
}

// packagesFor returns the import paths and directories of the packages,
// listed for goos, that have a file for goos that does not build for
// first and may hold a probe. A call in such a file of a wrapper declared
// in another file or package, with nothing else a rule looks at, is not
// seen.
func packagesFor(pkgs []listedPackage, goos, first string) (paths []string, dirs map[string]bool) {
	dirs = make(map[string]bool)
	for _, p := range pkgs {
		for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.TestGoFiles, p.XTestGoFiles} {
			if slices.ContainsFunc(list, func(name string) bool { return differs(p.Dir, name, goos, first) }) {
				paths = append(paths, p.ImportPath)
				dirs[p.Dir] = true
				break
			}
		}
	}
	return paths, dirs
}

// differs reports whether the file name in dir builds for goos but not
// for first, and may hold a probe.
func differs(dir, name, goos, first string) bool {
	if buildsFor(first, dir, name) || !buildsFor(goos, dir, name) {
		return false
	}
	src, err := os.ReadFile(filepath.Join(dir, name))
	return err != nil || mayHoldProbe(src) // unreadable: let the build say why
}

// moduleRoot returns the directory of the go.mod governing dir, or "".
func moduleRoot(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
