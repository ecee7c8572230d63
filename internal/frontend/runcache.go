package frontend

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/source"
)

// cacheMaxAge is how long an entry no run has used is kept.
const cacheMaxAge = 14 * 24 * time.Hour

// A RunCache keeps the result of a front end's run over the same files
// with the same binary and settings, as go vet's results are kept: a second
// run over an unchanged tree reads and hashes its files but parses none.
// It is for the front ends that check files (Input.Files).
type RunCache struct {
	dir string // "" when off
}

// CachedRun is a run's result as the cache keeps it.
type CachedRun struct {
	Findings []finding.Finding
	Errors   []string
}

// NewRunCache returns the run cache of the front end of lang (its
// directory in CacheDir); one that keeps nothing when the cache is off.
func NewRunCache(lang string) RunCache {
	if dir := CacheDir(); dir != "" {
		return RunCache{dir: filepath.Join(dir, lang)}
	}
	return RunCache{}
}

// Key hashes what the run's result depends on: this binary, the settings,
// the directory and each file's name and text. ok is false when one
// cannot be read: the run then goes uncached, and reports the file.
func (c RunCache) Key(in *Input) (key string, ok bool) {
	if c.dir == "" {
		return "", false
	}
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	h := sha256.New()
	if !hashBinary(h, exe) {
		return "", false
	}
	fmt.Fprintf(h, "dir %q\nsettings %+v\n", in.Dir, in.Settings)
	for _, name := range in.Files {
		f, err := in.Source.File(name)
		if err != nil {
			return "", false
		}
		fmt.Fprintf(h, "file %q %d\n", name, len(f.Data))
		h.Write(f.Data)
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

func hashBinary(h hash.Hash, name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err == nil
}

func (c RunCache) entry(key string) string { return filepath.Join(c.dir, key[:2], key+".json") }

// Get returns the result kept under key; an entry that does not decode is
// a miss.
func (c RunCache) Get(key string) (*CachedRun, bool) {
	name := c.entry(key)
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	var r CachedRun
	if json.Unmarshal(data, &r) != nil {
		return nil, false
	}
	now := time.Now()
	os.Chtimes(name, now, now) // used: kept another cacheMaxAge
	return &r, true
}

// Put keeps r under key and removes the entries unused for cacheMaxAge;
// a cache that cannot be written only costs the next run its time.
func (c RunCache) Put(key string, r *CachedRun) {
	data, err := json.Marshal(r)
	if err != nil {
		return
	}
	name := c.entry(key)
	if os.MkdirAll(filepath.Dir(name), 0o755) != nil {
		return
	}
	source.WriteFile(name, data)
	c.prune()
}

func (c RunCache) prune() {
	old := time.Now().Add(-cacheMaxAge)
	filepath.WalkDir(c.dir, func(name string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(name) == ".json" {
			if info, err := d.Info(); err == nil && info.ModTime().Before(old) {
				os.Remove(name)
			}
		}
		return nil
	})
}
