package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/frontend"
	"github.com/pidlint/pidlint/internal/rules"
	"github.com/pidlint/pidlint/internal/source"
)

// checkFiles runs the front end on testdata's files.
func checkFiles(t *testing.T, settings frontend.Settings, names ...string) *frontend.Result {
	t.Helper()
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, n := range names {
		files = append(files, filepath.Join(dir, n))
	}
	slices.Sort(files)
	res, err := New().Check(&frontend.Input{Dir: dir, Files: files, Settings: settings, Source: source.NewCache()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// got lists findings as "file:line: what", what the rule or, for a
// directive's finding, unused or bad-ignore.
func got(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		what := f.Rule
		switch {
		case f.Category == rules.BadIgnore:
			what = "bad-ignore"
		case f.Rule == "":
			what = "unused"
		}
		out = append(out, fmt.Sprintf("%s:%d: %s", filepath.Base(f.Pos.File), f.Pos.Line, what))
	}
	slices.Sort(out)
	return out
}

// wants reads a file's expectations: "# want SH001 …" on a line the
// finding is on, and "# strict SH002" for one only -strict reports.
func wants(t *testing.T, name string, strict bool) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, line := range strings.Split(string(data), "\n") {
		for _, marker := range []string{"# want ", "# strict "} {
			_, rest, ok := strings.Cut(line, marker)
			if !ok || marker == "# strict " && !strict {
				continue
			}
			for _, w := range strings.Fields(rest) {
				out = append(out, fmt.Sprintf("%s:%d: %s", name, i+1, w))
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestShapes checks each testdata script against its want lines: the
// PIDs the rules follow from a PID file to a probe, a signal or a guard,
// and the children, checks and look-alikes they leave alone.
func TestShapes(t *testing.T) {
	for _, name := range []string{"probe.sh", "bash.bash", "signal.sh", "own.sh", "checks.bash", "guard.sh", "directives.sh", "arrays.sh"} {
		t.Run(name, func(t *testing.T) {
			res := checkFiles(t, frontend.Settings{}, name)
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %q", res.Errors)
			}
			if g, w := got(res.Findings), wants(t, name, false); !slices.Equal(g, w) {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
			}
		})
	}
}

// TestStrict checks that -strict also reports the PIDs whose process is
// checked by name only, with the category raw-probe.
func TestStrict(t *testing.T) {
	res := checkFiles(t, frontend.Settings{Strict: true}, "checks.bash")
	if g, w := got(res.Findings), wants(t, "checks.bash", true); !slices.Equal(g, w) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	for _, f := range res.Findings {
		if raw := f.Category == rules.RawProbe; raw == (f.Pos.Line == 57) {
			t.Errorf("line %d: category %q", f.Pos.Line, f.Category)
		}
	}
}

// TestMessages checks what a finding says: the file the PID was read
// from, the flaw, and the safeprobe command that replaces the code, with
// the script's own file name and program.
func TestMessages(t *testing.T) {
	res := checkFiles(t, frontend.Settings{}, "probe.sh", "signal.sh", "guard.sh", "own.sh")
	msgs := map[string]string{}
	for _, f := range res.Findings {
		msgs[fmt.Sprintf("%s:%d", filepath.Base(f.Pos.File), f.Pos.Line)] = f.Message
	}
	for at, want := range map[string][]string{
		"probe.sh:5":  {"SH001: kill -0 on a PID read from \"$f\" (line 5)", "EPERM reads as dead", "safeprobe status \"$f\""},
		"probe.sh:14": {"[ -d \"/proc/$pid\" ]", "no /proc (macOS, the BSDs)"},
		"probe.sh:12": {"ps PID on a PID read from"},
		"signal.sh:5": {"SH002: kill sends SIGTERM to a PID read from \"$PIDFILE\"", "safeprobe stop \"$PIDFILE\""},
		"signal.sh:6": {"kill sends signal 9"},
		"guard.sh:5":  {"SH003: [ -e \"$PIDFILE\" ] refuses to start", "exec safeprobe run -lock \"$PIDFILE\" -- CMD"},
		"guard.sh:14": {"to start once, exec safeprobe run -lock \"$PIDFILE\""},
	} {
		for _, s := range want {
			if !strings.Contains(msgs[at], s) {
				t.Errorf("%s: message %q\ndoes not say %q", at, msgs[at], s)
			}
		}
	}
}

// TestRunCommandNamesTheProgram checks that the run fix names the program
// the script starts and writes the PID file of.
func TestRunCommandNamesTheProgram(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "init.sh")
	script := "#!/bin/sh\n[ -f /run/d.pid ] && kill -0 \"$(cat /run/d.pid)\" && exit 1\nnohup \"$DAEMON\" --fg &\necho $! > /run/d.pid\n"
	if err := os.WriteFile(name, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := New().Check(&frontend.Input{Dir: dir, Files: []string{name}, Source: source.NewCache()})
	if err != nil || len(res.Findings) != 1 {
		t.Fatalf("Check: %v, %v", res, err)
	}
	if m := res.Findings[0].Message; !strings.Contains(m, `exec safeprobe run -lock /run/d.pid -- "$DAEMON"`) {
		t.Errorf("message %q does not name the program", m)
	}
}

// TestBadFiles checks files that are not shell the parser reads: a syntax
// error is one error naming the file and line, and the other files are
// checked; a Python program behind a "#!/bin/sh" trampoline is no error.
func TestBadFiles(t *testing.T) {
	res := checkFiles(t, frontend.Settings{}, "broken.sh", "pyshim", "arrays.sh")
	if len(res.Errors) != 1 || !strings.HasPrefix(res.Errors[0], "broken.sh:3: syntax error: ") {
		t.Errorf("errors %q, want one for broken.sh:3", res.Errors)
	}
	if g := got(res.Findings); !slices.Equal(g, []string{"arrays.sh:4: SH002"}) {
		t.Errorf("findings %q, want arrays.sh's only", g)
	}
	if !res.Checked || !res.Analyzed(filepath.Join(mustAbs(t, "testdata"), "pyshim")) {
		t.Error("the files are not reported checked")
	}
}

// TestSettings checks -disable and -test=false.
func TestSettings(t *testing.T) {
	res := checkFiles(t, frontend.Settings{Disable: []string{"SH002", "PL001"}}, "signal.sh", "probe.sh")
	for _, f := range res.Findings {
		if f.Rule == "SH002" {
			t.Errorf("disabled SH002 reported: %s", f.Message)
		}
	}
	if len(res.Findings) == 0 {
		t.Error("SH001 not reported")
	}
	dir := t.TempDir()
	bats := filepath.Join(dir, "stop.bats")
	if err := os.WriteFile(bats, []byte("@test \"stop\" {\n  kill \"$(cat /run/a.pid)\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tests := range []bool{false, true} {
		res, err := New().Check(&frontend.Input{Dir: dir, Files: []string{bats}, Settings: frontend.Settings{Tests: tests}, Source: source.NewCache()})
		if err != nil || len(res.Errors) > 0 || (len(res.Findings) == 1) != tests {
			t.Errorf("-test=%v: %v, %v", tests, res, err)
		}
	}
}

func mustAbs(t *testing.T, name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
