package golang

// A cache of the builds beyond the first. The go command caches the first
// build's packages itself, so that a run on an unchanged tree costs what
// go vet's does; another GOOS's go vet would still load its whole import
// graph and look up every package, a fixed cost that a warm run on a large
// module pays once per GOOS. Its result is kept here instead, keyed by
// everything it depends on: this pidlint and the go command, the
// environment, the flags and patterns, and the state of every file of the
// module that a build can read (its modules' own files are fixed by
// go.sum). An edit anywhere in the module runs the builds again.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/frontend/golang/plan"
	"github.com/pidlint/pidlint/internal/gocmd"
	"github.com/pidlint/pidlint/internal/source"
)

// CacheEnv names the directory of the cache, or "off".
const CacheEnv = frontend.CacheEnv

// cacheMaxAge is how long an unused entry is kept.
const cacheMaxAge = 14 * 24 * time.Hour

type buildCache struct {
	dir  string // "" when off
	once sync.Once
	base []byte // the hash of what every build depends on; nil when it cannot be known
	cfg  config
	p    *plan.Plan
}

func newBuildCache(cfg config, p *plan.Plan) *buildCache {
	return &buildCache{cfg: cfg, p: p, dir: frontend.CacheDir()}
}

// cachedBuild is a build as the cache keeps it.
type cachedBuild struct {
	Findings []finding.Finding
	Failed   map[string]string
	Notes    []string
}

// get returns the cached build for goos.
func (c *buildCache) get(goos string) (*build, bool) {
	name := c.entry(goos)
	if name == "" {
		return nil, false
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	var cb cachedBuild
	if json.Unmarshal(data, &cb) != nil {
		return nil, false
	}
	now := time.Now()
	os.Chtimes(name, now, now) // used: kept another cacheMaxAge
	b := newBuild(goos)
	b.findings, b.notes = cb.Findings, cb.Notes
	if cb.Failed != nil {
		b.failed = cb.Failed
	}
	return b, true
}

// put keeps b, a build for goos that ran to its end; a build with errors
// that name no package (the go command's own) is not kept.
func (c *buildCache) put(goos string, b *build) {
	name := c.entry(goos)
	if name == "" || len(b.general) > 0 {
		return
	}
	data, err := json.Marshal(cachedBuild{Findings: b.findings, Failed: b.failed, Notes: b.notes})
	if err != nil || os.MkdirAll(filepath.Dir(name), 0o700) != nil {
		return
	}
	if source.WriteFile(name, data) == nil {
		c.prune(filepath.Dir(name))
	}
}

// entry is the file of the build for goos, or "" when there is none.
func (c *buildCache) entry(goos string) string {
	if c.dir == "" {
		return ""
	}
	c.once.Do(func() { c.base = c.inputs() })
	if c.base == nil {
		return ""
	}
	sum := sha256.Sum256(append(slices.Clip(c.base), goos...))
	return filepath.Join(c.dir, "builds", hex.EncodeToString(sum[:16])+".json")
}

// prune removes entries not used for cacheMaxAge.
func (c *buildCache) prune(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > cacheMaxAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// inputs hashes what a build depends on but its GOOS; nil when the
// patterns reach outside the module, or a workspace joins others to it.
func (c *buildCache) inputs() []byte {
	root := gocmd.ModuleRoot(c.p.Dir)
	if root == "" || workspace(root) {
		return nil
	}
	for _, pat := range c.p.Patterns {
		if !frontend.IsDirPattern(pat) || finding.Rel(root, filepath.Join(c.p.Dir, strings.TrimSuffix(pat, "..."))) == "" {
			return nil
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "dir %s\npatterns %q\nargs %q\ntests %v\n", c.p.Dir, c.p.Patterns, c.cfg.AnalyzerArgs, c.cfg.Tests)
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil
	}
	for _, f := range []string{c.cfg.Tool, goBin} {
		if !hashFile(h, f) {
			return nil
		}
	}
	env := os.Environ()
	slices.Sort(env)
	for _, kv := range env {
		if strings.HasPrefix(kv, "GO") || strings.HasPrefix(kv, "CGO_") || strings.HasPrefix(kv, "CC=") || strings.HasPrefix(kv, "PATH=") {
			fmt.Fprintf(h, "env %s\n", kv)
		}
	}
	dirs := append([]string{root}, localReplacements(root)...)
	for _, dir := range dirs {
		if !hashTree(h, dir) {
			return nil
		}
	}
	return h.Sum(nil)
}

// workspace reports whether a go.work governs root, or GOWORK names one.
func workspace(root string) bool {
	if w := os.Getenv("GOWORK"); w != "" {
		return w != "off"
	}
	for dir := root; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return true
		}
		if filepath.Dir(dir) == dir {
			return false
		}
	}
}

// localReplacements returns the directories go.mod's replace directives
// name: their files are built too.
func localReplacements(root string) []string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil
	}
	var dirs []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		_, target, ok := bytes.Cut(line, []byte("=>"))
		if fields := strings.Fields(string(target)); ok && len(fields) > 0 {
			if t := fields[0]; strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") || filepath.IsAbs(t) {
				if !filepath.IsAbs(t) {
					t = filepath.Join(root, t)
				}
				dirs = append(dirs, filepath.Clean(t))
			}
		}
	}
	return dirs
}

// builtFile reports whether a file of this name can change what a build
// of the module sees.
func builtFile(name string) bool {
	switch filepath.Ext(name) {
	case ".go", ".s", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m", ".f", ".F", ".for", ".f90", ".syso", ".swig", ".swigcxx":
		return true
	}
	switch name {
	case "go.mod", "go.sum", "modules.txt":
		return true
	}
	return false
}

// hashTree writes to h the name and state of every file under dir that a
// build can read, in a fixed order. It reports false when the tree cannot
// be read.
func hashTree(h io.Writer, dir string) bool {
	var buf []byte
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name != dir && (plan.SkippedDir(d.Name()) && d.Name() != "vendor" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !builtFile(d.Name()) {
			return nil
		}
		buf = append(append(buf[:0], name...), ':')
		if buf, err = appendFileState(buf, name); err != nil {
			return err
		}
		h.Write(append(buf, '\n'))
		return nil
	})
	return err == nil
}

// hashFile writes the name and state of the file name to h.
func hashFile(h io.Writer, name string) bool {
	b, err := appendFileState([]byte(name+":"), name)
	h.Write(append(b, '\n'))
	return err == nil
}
