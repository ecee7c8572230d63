package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// fetch downloads mod (path@version) through the module proxy with the go
// command and returns the module cache directory holding it.
func fetch(mod string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Dir = os.TempDir() // outside any module, so no go.mod is consulted
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(stdout.Bytes(), &info); err != nil {
		return "", fmt.Errorf("go mod download %s: %v %s", mod, runErr, strings.TrimSpace(stderr.String()))
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", mod, info.Error)
	}
	if runErr != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: %v %s", mod, runErr, strings.TrimSpace(stderr.String()))
	}
	return info.Dir, nil
}

// prepare copies the downloaded module into dir, writable, so that it can
// be the main module of a run: its go.mod (or, for a +incompatible module
// that keeps its requirements in vendor.mod, that file) pins every
// dependency, and its replace directives apply.
func prepare(src, dir string) error {
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		return fmt.Errorf("copying %s: %v", src, err)
	}
	gomod := filepath.Join(dir, "go.mod")
	if _, err := os.Stat(gomod); err == nil {
		return nil
	}
	vendorMod := filepath.Join(dir, "vendor.mod")
	data, err := os.ReadFile(vendorMod)
	if err != nil {
		return errors.New("the module has neither go.mod nor vendor.mod: its dependencies are not pinned")
	}
	if err := os.WriteFile(gomod, data, 0o644); err != nil {
		return err
	}
	if sum, err := os.ReadFile(filepath.Join(dir, "vendor.sum")); err == nil {
		return os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
	}
	return nil
}

// packages lists the package directories (./dir) holding the given files.
func packages(files []string) []string {
	set := make(map[string]bool)
	for _, f := range files {
		d := path.Dir(f)
		if d == "." {
			set["."] = true
		} else {
			set["./"+d] = true
		}
	}
	var dirs []string
	for d := range set {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs
}

// goosList is what pidlint analyzes by default.
var goosList = []string{"linux", "darwin", "windows", "freebsd"}

// fetchDeps downloads, through the module proxy, the modules that the
// packages and their tests import on each GOOS pidlint analyzes, so that
// the pidlint run itself downloads nothing. Packages that do not build
// for a GOOS are fine (-e); only a failing go command is an error.
func fetchDeps(dir string, pkgs []string) error {
	for _, goos := range goosList {
		args := append([]string{"list", "-e", "-deps", "-test", "-f", "{{.ImportPath}}"}, pkgs...)
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(goEnv(), "GOOS="+goos)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("GOOS=%s go list -deps: %v: %s", goos, err, strings.TrimSpace(lastLines(stderr.String(), 5)))
		}
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// goEnv is the environment for every go command run in a module copy:
// its own go.mod decides (no workspace, no vendor directory, which module
// zips do not carry), and no other toolchain is fetched.
func goEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
}
