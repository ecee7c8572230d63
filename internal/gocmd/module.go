package gocmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// A Module is the main module a run works in.
type Module struct {
	Dir, Path string
	GoVersion string            // its go directive
	Toolchain string            // its toolchain directive, "" if none
	Require   map[string]string // module path → version, from go.mod
}

// MainModule returns the main module of the run's directory.
func (r *Runner) MainModule() (*Module, error) {
	gomod, err := r.Env("GOMOD")
	if err != nil {
		return nil, err
	}
	if gomod == "" || gomod == os.DevNull {
		return nil, errors.New("no Go module here: -vendor-safeprobe writes into the current module; run pidlint inside one")
	}
	out, err := r.Output("mod", "edit", "-json")
	if err != nil {
		return nil, err
	}
	var mf struct {
		Module    struct{ Path string }
		Go        string
		Toolchain string
		Require   []struct{ Path, Version string }
	}
	if err := json.Unmarshal([]byte(out), &mf); err != nil {
		return nil, fmt.Errorf("%s: %v", gomod, err)
	}
	m := &Module{Dir: filepath.Dir(gomod), Path: mf.Module.Path, GoVersion: mf.Go, Toolchain: mf.Toolchain, Require: make(map[string]string)}
	for _, req := range mf.Require {
		m.Require[req.Path] = req.Version
	}
	return m, nil
}

// ModuleRoot returns the directory of the go.mod governing dir, or "".
func ModuleRoot(dir string) string {
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

// warmCacheEntries is how many files a build cache holds once anything
// was built with it; fewer, and it is taken for empty (a fresh CI runner).
const warmCacheEntries = 1000

// BuildCacheEmpty reports whether the go command's build cache holds (next
// to) nothing, or is off: go vet would then first compile every dependency.
func (r *Runner) BuildCacheEmpty() bool {
	cache, err := r.Env("GOCACHE")
	if err != nil || cache == "" || cache == "off" {
		return err == nil
	}
	n := 0
	for i := range 256 {
		entries, _ := os.ReadDir(filepath.Join(cache, fmt.Sprintf("%02x", i)))
		if n += len(entries); n >= warmCacheEntries {
			return false
		}
	}
	return true
}
