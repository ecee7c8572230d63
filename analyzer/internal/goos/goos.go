// Package goos computes the set of operating systems a Go file builds for,
// from its name and its build constraint, without consulting the host,
// and the set a piece of its code runs on, from the runtime.GOOS tests
// around it (guard.go).
package goos

import (
	"go/ast"
	"go/build/constraint"
	"go/token"
	"math/bits"
	"strings"
)

// Set is a set of GOOS values.
type Set uint32

// Known lists every GOOS value the go command knows, in bit order.
var Known = [...]string{
	"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios",
	"js", "linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1",
	"windows", "zos",
}

// All is every known GOOS.
const All Set = 1<<len(Known) - 1

// Named sets the analyzer's messages speak of.
var (
	Windows = Of("windows")
	Linux   = Of("linux", "android")
	// Unix is what the "unix" build tag matches.
	Unix = Of("aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos",
		"ios", "linux", "netbsd", "openbsd", "solaris")
	// Procfs is where /proc/<pid> is there by default: linux, the System V
	// heirs where procfs began (solaris, illumos, aix) and plan9.
	Procfs = Linux | Of("solaris", "illumos", "aix", "plan9")
	// NoProcfs is where /proc/<pid> cannot be relied on: not there at all, or
	// not mounted by default (the BSDs).
	NoProcfs = All &^ Procfs
)

// Of returns the set holding the named GOOS values; unknown names are ignored.
func Of(names ...string) Set {
	var s Set
	for _, n := range names {
		for i, k := range Known {
			if k == n {
				s |= 1 << i
			}
		}
	}
	return s
}

// Has reports whether s and t share a GOOS.
func (s Set) Has(t Set) bool { return s&t != 0 }

// Len is the number of GOOS values in s.
func (s Set) Len() int { return bits.OnesCount32(uint32(s)) }

// String lists the GOOS values in s, "linux, darwin", or "no OS".
func (s Set) String() string {
	if s == 0 {
		return "no OS"
	}
	return strings.Join(s.names(), ", ")
}

// names lists the GOOS values in s, in Known's order.
func (s Set) names() []string {
	var names []string
	for i, k := range Known {
		if s&(1<<i) != 0 {
			names = append(names, k)
		}
	}
	return names
}

// matches reports whether a build tag or file-name element names goos,
// following go/build: linux also matches android, darwin ios, solaris
// illumos, and unix (a tag only) every Unix.
func matches(tag, goos string, isTag bool) bool {
	switch {
	case tag == goos:
		return true
	case tag == "linux":
		return goos == "android"
	case tag == "darwin":
		return goos == "ios"
	case tag == "solaris":
		return goos == "illumos"
	case tag == "unix":
		return isTag && Unix.Has(Of(goos))
	}
	return false
}

func isOSTag(tag string) bool { return tag == "unix" || Of(tag) != 0 }

// FromName returns the GOOS values a file name admits: "x_windows.go" only
// windows, "x_linux_arm64_test.go" linux and android, "x_unix.go" every OS
// (unix is not a file-name constraint), as go/build reads it.
func FromName(name string) Set {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	name, _, _ = strings.Cut(name, ".")
	i := strings.Index(name, "_")
	if i < 0 {
		return All
	}
	l := strings.Split(name[i:], "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	var os string
	switch {
	case n >= 2 && Of(l[n-2]) != 0 && knownArch[l[n-1]]:
		os = l[n-2]
	case n >= 1 && Of(l[n-1]) != 0:
		os = l[n-1]
	default:
		return All
	}
	var s Set
	for i, k := range Known {
		if matches(os, k, false) {
			s |= 1 << i
		}
	}
	return s
}

// FromConstraint returns the GOOS values for which some choice of the other
// tags (architecture, cgo, custom tags, Go versions) satisfies expr.
// "linux && darwin" is empty; "!windows" is everything but windows.
func FromConstraint(expr constraint.Expr) Set {
	var arches, free []string
	seen := map[string]bool{}
	collectTags(expr, func(tag string) {
		if seen[tag] || isOSTag(tag) {
			return
		}
		seen[tag] = true
		if knownArch[tag] {
			arches = append(arches, tag)
		} else {
			free = append(free, tag)
		}
	})
	const maxFree = 12 // beyond this, assume some choice satisfies expr
	if len(free) > maxFree {
		return All
	}
	var s Set
	for i, goos := range Known {
		if satisfiable(expr, goos, arches, free) {
			s |= 1 << i
		}
	}
	return s
}

func satisfiable(expr constraint.Expr, goos string, arches, free []string) bool {
	// The architecture is one value: either one of the tags named, or another.
	for a := 0; a <= len(arches); a++ {
		for mask := 0; mask < 1<<len(free); mask++ {
			ok := expr.Eval(func(tag string) bool {
				if isOSTag(tag) {
					return matches(tag, goos, true)
				}
				if knownArch[tag] {
					return a < len(arches) && arches[a] == tag
				}
				for i, f := range free {
					if f == tag {
						return mask&(1<<i) != 0
					}
				}
				return false
			})
			if ok {
				return true
			}
		}
	}
	return false
}

func collectTags(expr constraint.Expr, visit func(string)) {
	switch e := expr.(type) {
	case *constraint.TagExpr:
		visit(e.Tag)
	case *constraint.NotExpr:
		collectTags(e.X, visit)
	case *constraint.AndExpr:
		collectTags(e.X, visit)
		collectTags(e.Y, visit)
	case *constraint.OrExpr:
		collectTags(e.X, visit)
		collectTags(e.Y, visit)
	}
}

// BuildConstraint returns the file's build constraint as the go command
// reads it: its //go:build line, or else its +build lines joined with &&.
// A +build line counts only in the leading run of // comments that a blank
// line separates from the package clause ("//+build", without the space,
// counts too); a +build line in the package's doc comment does not.
// It returns nil when the file has none.
func BuildConstraint(fset *token.FileSet, f *ast.File) constraint.Expr {
	var plus constraint.Expr
	pkgLine := fset.Position(f.Package).Line
	header := true
	for _, group := range f.Comments {
		if group.Pos() >= f.Package {
			break
		}
		// The package doc comment ends the header for +build lines.
		inDoc := fset.Position(group.End()).Line >= pkgLine-1
		for _, c := range group.List {
			if strings.HasPrefix(c.Text, "/*") {
				header = false
			}
			switch {
			case constraint.IsGoBuild(c.Text):
				if x, err := constraint.Parse(c.Text); err == nil {
					return x
				}
			case header && !inDoc && constraint.IsPlusBuild(c.Text):
				if x, err := constraint.Parse(c.Text); err == nil {
					if plus == nil {
						plus = x
					} else {
						plus = &constraint.AndExpr{X: plus, Y: x}
					}
				}
			}
		}
	}
	return plus
}

// OfFile returns the GOOS values the named file builds for.
func OfFile(fset *token.FileSet, name string, f *ast.File) Set {
	s := FromName(name)
	if expr := BuildConstraint(fset, f); expr != nil {
		s &= FromConstraint(expr)
	}
	return s
}

var knownArch = map[string]bool{
	"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true,
	"arm64": true, "arm64be": true, "loong64": true, "mips": true, "mipsle": true,
	"mips64": true, "mips64le": true, "mips64p32": true, "mips64p32le": true,
	"ppc": true, "ppc64": true, "ppc64le": true, "riscv": true, "riscv64": true,
	"s390": true, "s390x": true, "sparc": true, "sparc64": true, "wasm": true,
}
