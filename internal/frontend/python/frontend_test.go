package python

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/source"
)

// wantComment is a "# want PY001" or "# want PY003 "part of the message""
// comment: the line must have a finding of the rule (whose message holds
// the part); a line without one must have none.
var wantComment = regexp.MustCompile(`# want (PY\d{3}|bad-ignore|unused)(?: "([^"]*)")?`)

// pyFiles are the .py files under dir, absolute and sorted.
func pyFiles(t *testing.T, dir string) []string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(abs, func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(name, ".py") {
			files = append(files, name)
		}
		return err
	})
	slices.Sort(files)
	return files
}

// runCheck runs the front end over files with the settings.
func runCheck(t *testing.T, files []string, s frontend.Settings) *frontend.Result {
	t.Helper()
	res, err := New().Check(&frontend.Input{Dir: filepath.Dir(files[0]), Files: files, Settings: s, Source: source.NewCache()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// key is a finding's file base name and line, as the want comments name
// them.
func key(file string, line int) string { return fmt.Sprintf("%s:%d", filepath.Base(file), line) }

// TestShapes checks every file of testdata/src against its want comments:
// the shapes of real code each rule must report, and those it must not
// (platform guards, own children, identity checks, recovery by a lock).
func TestShapes(t *testing.T) {
	files := pyFiles(t, "testdata/src")
	res := runCheck(t, files, frontend.Settings{})
	for _, e := range res.Errors {
		t.Errorf("error: %s", e)
	}
	got := map[string][]finding.Finding{}
	for _, f := range res.Findings {
		got[key(f.Pos.File, f.Pos.Line)] = append(got[key(f.Pos.File, f.Pos.Line)], f)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			k := key(name, i+1)
			for _, m := range wantComment.FindAllStringSubmatch(line, -1) {
				j := slices.IndexFunc(got[k], func(f finding.Finding) bool {
					rule := f.Rule
					switch {
					case f.Category == "bad-ignore":
						rule = "bad-ignore"
					case f.Rule == "":
						rule = "unused"
					}
					return rule == m[1] && strings.Contains(f.Message, m[2])
				})
				if j < 0 {
					t.Errorf("%s: no %s finding matching %q; got %v", k, m[1], m[2], messages(got[k]))
					continue
				}
				got[k] = slices.Delete(got[k], j, j+1)
			}
		}
	}
	for k, fs := range got {
		for _, f := range fs {
			t.Errorf("%s: unexpected finding %s", k, f.Message)
		}
	}
}

func messages(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Message)
	}
	return out
}
