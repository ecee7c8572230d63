package main

// This file asks the go command about the main module: where it is, what
// its go.mod requires, and whether there is one at all.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A module is the main module a run works in.
type module struct {
	dir, path string
	goVersion string            // its go directive
	require   map[string]string // module path → version, from go.mod
}

// mainModule returns the main module that dir is in.
func mainModule(dir string) (*module, error) {
	out, err := goCmd(dir, "env", "GOMOD")
	if err != nil {
		return nil, err
	}
	gomod := strings.TrimSpace(out)
	if gomod == "" || gomod == os.DevNull {
		return nil, errors.New("no Go module here: -vendor-safeprobe writes into the current module; run pidlint inside one")
	}
	out, err = goCmd(dir, "mod", "edit", "-json")
	if err != nil {
		return nil, err
	}
	var mf struct {
		Module  struct{ Path string }
		Go      string
		Require []struct{ Path, Version string }
	}
	if err := json.Unmarshal([]byte(out), &mf); err != nil {
		return nil, fmt.Errorf("%s: %v", gomod, err)
	}
	m := &module{dir: filepath.Dir(gomod), path: mf.Module.Path, goVersion: mf.Go, require: make(map[string]string)}
	for _, r := range mf.Require {
		m.require[r.Path] = r.Version
	}
	return m, nil
}

// errNoModule is the one line pidlint prints for a package path pattern
// outside any module, instead of the go command's several.
var errNoModule = errors.New("no Go module here: run pidlint inside a module, or pass packages")

// checkModule fails with errNoModule when a pattern names directories
// (./..., ., ../x, /abs) but dir is in no module and no workspace. Import
// paths, such as the standard library's, work anywhere.
func checkModule(dir string, patterns []string) error {
	paths := false
	for _, p := range patterns {
		paths = paths || p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || filepath.IsAbs(p)
	}
	if !paths {
		return nil
	}
	out, err := goCmd(dir, "env", "GOMOD", "GOWORK")
	if err != nil {
		return err
	}
	gomod, gowork, _ := strings.Cut(out, "\n")
	gomod, gowork = strings.TrimSpace(gomod), strings.TrimSpace(gowork)
	if (gomod == "" || gomod == os.DevNull) && (gowork == "" || gowork == "off") {
		return errNoModule
	}
	return nil
}

// goCmd runs the go command in dir and returns its standard output.
func goCmd(dir string, args ...string) (string, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("go %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("go %s: %v", args[0], err)
	}
	return string(out), nil
}
