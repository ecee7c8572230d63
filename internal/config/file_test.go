package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/rules"
)

func TestParseFile(t *testing.T) {
	src := `# settings
disable = ["PL004", "shell-probe"] # two rules
safeprobe = "example.com/m/internal/safeprobe"
goos = [
	"linux",  # the host
	"windows",
]
languages = ["go", "shell"]
exclude = ["third_party", "gen/*.go"]
strict = true
`
	f, err := ParseFile("/src/pidlint.conf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Disable, []string{"PL004", "PL005"}) || f.Safeprobe != "example.com/m/internal/safeprobe" ||
		!slices.Equal(f.GOOS, []string{"linux", "windows"}) || !slices.Equal(f.Exclude, []string{"third_party", "gen/*.go"}) ||
		!slices.Equal(f.Languages, []string{"go", "shell"}) ||
		f.Strict == nil || !*f.Strict {
		t.Errorf("ParseFile = %+v", f)
	}
}

// TestParseFileErrors checks that each mistake is an error naming the
// file, the line and the key.
func TestParseFileErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"disabel = [\"PL004\"]\n", `pidlint.conf:1: unknown key "disabel" (keys: disable, exclude, goos, languages, safeprobe, strict)`},
		{"languages = [\"go\", \"perl\"]\n", `pidlint.conf:1: languages: unknown language "perl"`},
		{"\n\ndisable = [\"PL999\"]\n", `pidlint.conf:3: disable: unknown rule "PL999"`},
		{"strict = yes\n", "pidlint.conf:1: strict: bad value yes"},
		{"strict = \"true\"\n", "pidlint.conf:1: strict: want true or false"},
		{"goos = [\"linux\", \"beos\"]\n", `pidlint.conf:1: goos: unknown GOOS "beos"`},
		{"goos = \"linux\"\n", "pidlint.conf:1: goos: want a list of strings"},
		{"exclude = [\"../x\"]\n", `pidlint.conf:1: exclude: "../x": want a path relative`},
		{"exclude = [\"[\"]\n", `pidlint.conf:1: exclude: "[": syntax error in pattern`},
		{"safeprobe = \"a b\"\n", "pidlint.conf:1: safeprobe: want an import path"},
		{"strict = true\nstrict = false\n", "pidlint.conf:2: strict is set again (first on line 1)"},
		{"disable = [\"PL001\" \"PL002\"]\n", "pidlint.conf:1: disable: bad array"},
		{"just words\n", "pidlint.conf:1: want key = value"},
	} {
		_, err := ParseFile("/src/pidlint.conf", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "/src/pidlint.conf:") {
			t.Errorf("ParseFile(%q) = %v, want an error with %q", tc.src, err, tc.want)
		}
	}
}

// TestFindFile checks that the config file is the nearest one at or above
// the directory, and that none is no error.
func TestFindFile(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if f, err := FindFile(sub); err != nil || f.Path != "" {
		t.Fatalf("no file: %+v, %v", f, err)
	}
	if err := os.WriteFile(filepath.Join(root, FileName), []byte("strict = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := FindFile(sub); err != nil || f.Path != filepath.Join(root, FileName) || f.Strict == nil {
		t.Errorf("file two directories up: %+v, %v", f, err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", FileName), []byte("strict = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := FindFile(sub); err != nil || f.Path != filepath.Join(root, "a", FileName) || *f.Strict {
		t.Errorf("the nearer file: %+v, %v", f, err)
	}
}

// TestParseOverFile checks that flags override the file, and that the
// file fills in what no flag sets.
func TestParseOverFile(t *testing.T) {
	dir := t.TempDir()
	conf := "disable = [\"PL004\"]\nsafeprobe = \"example.com/m/internal/safeprobe\"\ngoos = [\"windows\"]\nlanguages = [\"go\"]\nstrict = true\n"
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := Parse([]string{"./..."}, "linux", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Disable, []string{"PL004"}) || o.Safeprobe != "example.com/m/internal/safeprobe" || !o.Strict ||
		!slices.Equal(o.GOOS, []string{"windows"}) || !slices.Equal(o.Languages, []*rules.Language{rules.Go}) {
		t.Errorf("from the file: disable %q, safeprobe %q, strict %v, goos %q, languages %v", o.Disable, o.Safeprobe, o.Strict, o.GOOS, o.Languages)
	}
	o, err = Parse([]string{"-strict=false", "-disable=PL001", "-goos=host", "-languages=shell,go", "./..."}, "linux", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Disable, []string{"PL001"}) || o.Safeprobe != "example.com/m/internal/safeprobe" || o.Strict ||
		!slices.Equal(o.GOOS, []string{"linux"}) || !slices.Equal(o.Languages, []*rules.Language{rules.Shell, rules.Go}) {
		t.Errorf("flags over the file: disable %q, safeprobe %q, strict %v, goos %q, languages %v", o.Disable, o.Safeprobe, o.Strict, o.GOOS, o.Languages)
	}
	if _, err := Parse([]string{"-languages=go,cobol", "./..."}, "linux", dir); err == nil || !strings.Contains(err.Error(), `-languages=go,cobol: unknown language "cobol"`) {
		t.Errorf("-languages=go,cobol: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("strict = maybe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse([]string{"./..."}, "linux", dir); err == nil || !strings.Contains(err.Error(), FileName+":1:") {
		t.Errorf("a bad file: %v, want an error naming it and the line", err)
	} else if _, usage := err.(*UsageError); !usage {
		t.Errorf("a bad file: %T, want a usage error (exit 2)", err)
	}
}

// TestSetSafeprobe checks that recording the vendored path keeps the rest
// of the file and replaces an old value.
func TestSetSafeprobe(t *testing.T) {
	name := filepath.Join(t.TempDir(), FileName)
	if err := SetSafeprobe(name, "example.com/m/internal/safeprobe"); err != nil {
		t.Fatal(err)
	}
	if f, err := FindFile(filepath.Dir(name)); err != nil || f.Safeprobe != "example.com/m/internal/safeprobe" {
		t.Fatalf("a new file: %+v, %v", f, err)
	}
	if err := os.WriteFile(name, []byte("# ours\nstrict = true\nsafeprobe = \"old/safeprobe\" # was\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SetSafeprobe(name, "example.com/m/internal/safeprobe"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(name)
	if want := "# ours\nstrict = true\nsafeprobe = \"example.com/m/internal/safeprobe\"\n"; string(data) != want {
		t.Errorf("file after SetSafeprobe:\n%s\nwant:\n%s", data, want)
	}
	if f, err := ParseFile(name, data); err != nil || f.Safeprobe != "example.com/m/internal/safeprobe" {
		t.Errorf("the file does not parse back: %+v, %v", f, err)
	}
}
