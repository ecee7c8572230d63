package fix

// What vendoring safeprobe changes in the module around the copy: its
// requirement of golang.org/x/sys, and vendor/.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pidlint/pidlint"
	"github.com/pidlint/pidlint/internal/gocmd"
)

// requireSys makes the module require golang.org/x/sys at least at the
// version safeprobe is built with, which the copy imports, and leaves the
// go and toolchain lines as they were. It returns a line for the user
// when it changed go.mod.
func requireSys(r *gocmd.Runner, mod *gocmd.Module) (string, error) {
	want := pidlint.Requires(sysModule)
	have, ok := mod.Require[sysModule]
	if ok && !semverLess(have, want) {
		return "", nil
	}
	target := sysModule + "@" + want
	// Not with go@<go line>, which would hold the go line: go get reads
	// go@1.21 as the latest 1.21.x release and writes that.
	if _, err := r.Output("get", target); err != nil {
		return "", fmt.Errorf("-vendor-safeprobe: safeprobe imports %s %s or later, which go.mod does not require, and %v; add it (go get %s) and run again", sysModule, want, err, target)
	}
	after, err := r.MainModule()
	if err != nil {
		return "", err
	}
	if after.GoVersion != mod.GoVersion || after.Toolchain != mod.Toolchain {
		return "", fmt.Errorf("-vendor-safeprobe: go get %s changes go.mod's go line from %q to %q (toolchain %q to %q); pidlint does not change it: raise it yourself if you mean to, and run again", target, mod.GoVersion, after.GoVersion, mod.Toolchain, after.Toolchain)
	}
	return fmt.Sprintf("go get %s: safeprobe imports it", target), nil
}

// semverLess reports whether semantic version a precedes b. It compares
// major, minor and patch numbers, and a pre-release (as in a
// pseudo-version) before its release.
func semverLess(a, b string) bool {
	parse := func(v string) (nums [3]int, pre string) {
		v = strings.TrimPrefix(v, "v")
		v, _, _ = strings.Cut(v, "+")
		v, pre, _ = strings.Cut(v, "-")
		for i, f := range strings.SplitN(v, ".", 3) {
			nums[i], _ = strconv.Atoi(f)
		}
		return nums, pre
	}
	an, ap := parse(a)
	bn, bp := parse(b)
	if c := slices.Compare(an[:], bn[:]); c != 0 {
		return c < 0
	}
	switch {
	case ap == bp:
		return false
	case ap == "":
		return false
	case bp == "":
		return true
	}
	return ap < bp
}

// savedModule is the module's go.mod and go.sum as they were before
// vendoring, to put back when it fails half-way.
type savedModule struct {
	dir   string
	files map[string][]byte // name → content; nil content: there was none
}

func saveModule(dir string) (*savedModule, error) {
	s := &savedModule{dir: dir, files: make(map[string][]byte)}
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		s.files[name] = data
	}
	return s, nil
}

func (s *savedModule) restore() {
	for name, data := range s.files {
		if data == nil {
			os.Remove(filepath.Join(s.dir, name))
		} else {
			os.WriteFile(filepath.Join(s.dir, name), data, 0o644)
		}
	}
}

// settleModule makes go.mod require golang.org/x/sys directly, as the
// copy imports it (go get adds a new requirement as indirect, and go mod
// tidy would move it), and brings vendor/ up to date when the module
// vendors: vendored anew into a directory of its own first, so that a
// failure leaves the old vendor/ whole.
func settleModule(r *gocmd.Runner, dir string) error {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 4 && f[0] == sysModule && f[2] == "//" && f[3] == "indirect" {
			if _, err := r.Output("mod", "edit", "-droprequire="+sysModule, "-require="+sysModule+"@"+f[1]); err != nil {
				return err
			}
			if gomod, err = os.ReadFile(filepath.Join(dir, "go.mod")); err != nil {
				return err
			}
			break
		}
	}
	modules, err := os.ReadFile(filepath.Join(dir, "vendor", "modules.txt"))
	if err != nil || vendorsSys(modules, gomod) {
		return nil // the module does not vendor, or vendor/ has what the copy imports
	}
	fresh, err := os.MkdirTemp(dir, ".pidlint-vendor-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(fresh)
	if _, err := r.Output("mod", "vendor", "-o", fresh); err != nil {
		return err
	}
	old := filepath.Join(dir, "vendor")
	stale := fresh + ".old"
	if err := os.Rename(old, stale); err != nil {
		return err
	}
	if err := os.Rename(fresh, old); err != nil {
		os.Rename(stale, old)
		return err
	}
	return os.RemoveAll(stale)
}

// vendorsSys reports whether vendor/modules.txt lists golang.org/x/sys at
// the version go.mod requires, explicitly, with the packages safeprobe
// imports.
func vendorsSys(modules, gomod []byte) bool {
	version := ""
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == sysModule {
			version = f[1]
		}
	}
	m := string(modules)
	header := "# " + sysModule + " " + version + "\n## explicit"
	return version != "" && strings.Contains(m, header) &&
		strings.Contains(m, "\n"+sysModule+"/unix\n") && strings.Contains(m, "\n"+sysModule+"/windows\n")
}
