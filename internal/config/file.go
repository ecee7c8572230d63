package config

// The repository's config file, pidlint.conf, found from the working
// directory upward (as staticcheck.conf is): lines of key = value, with
// TOML's strings, booleans and arrays, and # comments.
//
//	# pidlint.conf
//	disable = ["PL004", "shell-probe"]
//	safeprobe = "example.com/m/internal/safeprobe"
//	goos = ["linux", "windows"]
//	languages = ["go", "shell"]
//	exclude = ["third_party", "gen/*.go"]
//	strict = true
//
// Flags override it. golangci-lint's plugin takes the same keys as its
// settings.

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pidlint/pidlint/internal/rules"
	"github.com/pidlint/pidlint/internal/source"
)

// FileName is the config file's name.
const FileName = "pidlint.conf"

// A File is a config file's settings; a key it does not set is nil or
// empty.
type File struct {
	Path      string   // the file's name, absolute; "" when there is none
	Disable   []string // rule IDs
	Safeprobe string
	GOOS      []string // as -goos: values or "host"
	Languages []string // as -languages: language names
	Exclude   []string // slash paths or patterns, relative to the file's directory
	Strict    *bool
}

// A key is one setting of the file.
type key struct {
	name string
	// set checks and stores a value: a string, a bool or a []string.
	set func(f *File, v any) error
	// golangci is why golangci-lint's plugin refuses the key, or "".
	golangci string
}

var keys = []key{
	{name: "disable", set: func(f *File, v any) error {
		list, err := stringList(v)
		if err != nil {
			return err
		}
		f.Disable, err = rules.Parse(strings.Join(list, ","))
		return err
	}},
	{name: "exclude", set: func(f *File, v any) error {
		list, err := stringList(v)
		for _, p := range list {
			clean := path.Clean(p)
			if p == "" || path.IsAbs(clean) || filepath.IsAbs(p) || clean == ".." || strings.HasPrefix(clean, "../") {
				return fmt.Errorf("%q: want a path relative to the file's directory", p)
			}
			if _, err := path.Match(clean, ""); err != nil {
				return fmt.Errorf("%q: %v", p, err)
			}
			f.Exclude = append(f.Exclude, clean)
		}
		return err
	}, golangci: "golangci-lint excludes paths itself: linters.exclusions.paths"},
	{name: "goos", set: func(f *File, v any) error {
		list, err := stringList(v)
		if err == nil {
			_, err = ParseGOOS(strings.Join(list, ","), "linux")
		}
		f.GOOS = list
		return err
	}, golangci: "golangci-lint analyzes the build of its own GOOS: run it with GOOS set"},
	{name: "languages", set: func(f *File, v any) error {
		list, err := stringList(v)
		if err == nil {
			_, err = rules.ParseLanguages(list)
		}
		f.Languages = list
		return err
	}, golangci: "golangci-lint runs the Go rules only; pidlint ./... checks the other languages"},
	{name: "safeprobe", set: func(f *File, v any) error {
		s, ok := v.(string)
		if !ok || s == "" || strings.ContainsAny(s, " \t\"\\") || strings.HasPrefix(s, "/") {
			return fmt.Errorf("want an import path, e.g. \"example.com/m/internal/safeprobe\"")
		}
		f.Safeprobe = s
		return nil
	}},
	{name: "strict", set: func(f *File, v any) error {
		b, ok := v.(bool)
		if !ok {
			return errors.New("want true or false")
		}
		f.Strict = &b
		return nil
	}},
}

func keyNames() string {
	var names []string
	for _, k := range keys {
		names = append(names, k.name)
	}
	return strings.Join(names, ", ")
}

func lookupKey(name string) (key, bool) {
	i := slices.IndexFunc(keys, func(k key) bool { return k.name == name })
	if i < 0 {
		return key{}, false
	}
	return keys[i], true
}

func stringList(v any) ([]string, error) {
	list, ok := v.([]string)
	if !ok {
		return nil, errors.New(`want a list of strings, e.g. ["a", "b"]`)
	}
	return list, nil
}

// FindFile reads the config file of dir: the first FileName in dir or a
// directory above it. It returns an empty File when there is none.
func FindFile(dir string) (*File, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for {
		name := filepath.Join(dir, FileName)
		data, err := os.ReadFile(name)
		switch {
		case err == nil:
			return ParseFile(name, data)
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return &File{}, nil
		}
		dir = parent
	}
}

// ParseFile parses the config file name, whose content is data. An error
// names the file and the line.
func ParseFile(name string, data []byte) (*File, error) {
	f := &File{Path: name}
	seen := make(map[string]int)
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		n := i + 1
		line := strings.TrimSpace(stripComment(lines[i]))
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" {
			return nil, fmt.Errorf("%s:%d: want key = value", f.Path, n)
		}
		// An array may go on over lines until its ].
		for strings.HasPrefix(value, "[") && !strings.HasSuffix(value, "]") && i+1 < len(lines) {
			i++
			value += " " + strings.TrimSpace(stripComment(lines[i]))
		}
		k, ok := lookupKey(name)
		if !ok {
			return nil, fmt.Errorf("%s:%d: unknown key %q (keys: %s)", f.Path, n, name, keyNames())
		}
		if first, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s:%d: %s is set again (first on line %d)", f.Path, n, name, first)
		}
		seen[name] = n
		v, err := parseValue(value)
		if err == nil {
			err = k.set(f, v)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %v", f.Path, n, name, err)
		}
	}
	return f, nil
}

// stripComment removes a # comment that is not inside a string.
func stripComment(line string) string {
	quoted := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == '#' && !quoted:
			return line[:i]
		}
	}
	return line
}

// parseValue parses a string, a bool or an array of strings.
func parseValue(s string) (any, error) {
	switch {
	case s == "true", s == "false":
		return s == "true", nil
	case strings.HasPrefix(s, `"`):
		v, err := strconv.Unquote(s)
		if err != nil {
			return nil, fmt.Errorf("bad string %s", s)
		}
		return v, nil
	case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"):
		list := []string{}
		rest := strings.TrimSpace(s[1 : len(s)-1])
		for rest != "" {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, fmt.Errorf("bad array %s: want strings in double quotes", s)
			}
			v, _ := strconv.Unquote(q)
			list = append(list, v)
			rest = strings.TrimSpace(rest[len(q):])
			if rest != "" {
				if !strings.HasPrefix(rest, ",") {
					return nil, fmt.Errorf("bad array %s: want a comma between strings", s)
				}
				rest = strings.TrimSpace(rest[1:])
			}
		}
		return list, nil
	}
	return nil, fmt.Errorf("bad value %s: want a string in double quotes, true, false or an array", s)
}

// PluginSettings are the settings golangci-lint's plugin gives the Go
// analyzer (its analyzer.Config).
type PluginSettings struct {
	Strict    bool
	Safeprobe string   // "" for the default
	Disable   []string // rule IDs
}

// Settings reads golangci-lint's plugin settings (the YAML under
// linters.settings.custom.pidlint.settings, as generic values): the keys
// of the config file that the analyzer takes, checked the same way.
func Settings(settings map[string]any) (PluginSettings, error) {
	f := &File{}
	for _, name := range slices.Sorted(maps.Keys(settings)) {
		k, ok := lookupKey(name)
		if !ok {
			return PluginSettings{}, fmt.Errorf("unknown setting %q (settings: %s)", name, keyNames())
		}
		if k.golangci != "" {
			return PluginSettings{}, fmt.Errorf("%s: %s", name, k.golangci)
		}
		v := settings[name]
		if list, ok := v.([]any); ok {
			strs := make([]string, len(list))
			for i, e := range list {
				if strs[i], ok = e.(string); !ok {
					return PluginSettings{}, fmt.Errorf("%s: want a list of strings", name)
				}
			}
			v = strs
		}
		if err := k.set(f, v); err != nil {
			return PluginSettings{}, fmt.Errorf("%s: %v", name, err)
		}
	}
	return PluginSettings{Strict: f.Strict != nil && *f.Strict, Safeprobe: f.Safeprobe, Disable: f.Disable}, nil
}

// SetSafeprobe records safeprobe's import path in the config file at name
// (written by -vendor-safeprobe): the line of the key is replaced, or one
// added, keeping the rest of the file; the file is made when missing.
func SetSafeprobe(name, importPath string) error {
	line := "safeprobe = " + strconv.Quote(importPath)
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = []byte("# pidlint settings: pidlint -help, or README.md.\n"), nil
	}
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	i := slices.IndexFunc(lines, func(l string) bool {
		k, _, ok := strings.Cut(stripComment(l), "=")
		return ok && strings.TrimSpace(k) == "safeprobe"
	})
	if i >= 0 {
		lines[i] = line
	} else {
		lines = append(lines, line)
	}
	return source.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"))
}
