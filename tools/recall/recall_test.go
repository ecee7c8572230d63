package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testSrc = `package p

var kill = func(pid int) error {
	return nil
}

type T struct{}

func (t *T) Stop() {
	_ = kill(1)
}

func helper() {
}
`

func writeModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte(testSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeSites(t *testing.T, lines ...string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "sites.tsv")
	if err := os.WriteFile(name, []byte("# comment\n\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func site(cols ...string) string { return strings.Join(cols, "\t") }

// TestReadSitesErrors checks that each malformed line is refused with the
// file and line named.
func TestReadSitesErrors(t *testing.T) {
	good := []string{"example.com/m@v1.0.0", "p/p.go", "10", "PL007", "bad", "-", "a verdict"}
	for _, tc := range []struct {
		col  int
		val  string
		want string
	}{
		{0, "example.com/m", "not path@version"},
		{1, "p/p_test.go", "test file"},
		{1, "../p.go", "not a .go path"},
		{2, "0", "not a positive number"},
		{3, "PL001", "want PL007 or PL008"},
		{4, "maybe", "want bad, good or name-check"},
		{5, "p.txt:Foo", "is not a .go file"},
		{6, " ", "no verdict"},
	} {
		cols := append([]string(nil), good...)
		cols[tc.col] = tc.val
		name := writeSites(t, site(cols...))
		_, err := ReadSites(name)
		if err == nil || !strings.Contains(err.Error(), name+":3:") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("column %d = %q: error %v, want %s:3: ... %s", tc.col, tc.val, err, name, tc.want)
		}
	}
	name := writeSites(t, site(good...), site(good...))
	if _, err := ReadSites(name); err == nil || !strings.Contains(err.Error(), "already labelled at line 3") {
		t.Errorf("duplicate site: error %v", err)
	}
	name = writeSites(t, strings.Join(good[:6], "\t"))
	if _, err := ReadSites(name); err == nil || !strings.Contains(err.Error(), "6 tab-separated columns") {
		t.Errorf("short line: error %v", err)
	}
}

// TestMatch checks the matching rules: a finding of the site's rule in the
// declaration holding the site or in a scope declaration counts, on the
// site's line it also counts as at the fix, other rules and other
// declarations do not, and what no site claims is returned.
func TestMatch(t *testing.T) {
	dir := writeModule(t)
	name := writeSites(t,
		site("example.com/m@v1.0.0", "p/p.go", "10", "PL007", "bad", "kill", "stop"),
		site("example.com/m@v1.0.0", "p/p.go", "14", "PL008", "name-check", "-", "helper"),
	)
	sites, err := ReadSites(name)
	if err != nil {
		t.Fatal(err)
	}
	spans, err := scopes(sites, NewDecls(dir))
	if err != nil {
		t.Fatal(err)
	}
	findings := []Finding{
		{Rule: "PL007", File: "p/p.go", Line: 4},  // in the kill var: the stop site's
		{Rule: "PL002", File: "p/p.go", Line: 10}, // another rule
		{Rule: "PL008", File: "p/p.go", Line: 13}, // helper: the name-check site's
		{Rule: "PL007", File: "p/p.go", Line: 14}, // no PL007 site claims helper
	}
	results, unmatched := match(sites, spans, findings)
	if !results[0].Found || results[0].AtFix {
		t.Errorf("stop site: found %v at fix %v, want found, not at the fix", results[0].Found, results[0].AtFix)
	}
	if !results[1].Found {
		t.Errorf("helper site not found")
	}
	if len(unmatched) != 1 || unmatched[0].Line != 14 {
		t.Errorf("unmatched %v, want the PL007 finding at line 14", unmatched)
	}
	findings = append(findings, Finding{Rule: "PL007", File: "p/p.go", Line: 10})
	results, _ = match(sites, spans, findings)
	if !results[0].AtFix {
		t.Errorf("a finding on the site's line is not at the fix")
	}
	def := tally(results, unmatched, false)
	strict := tally(results, unmatched, true)
	if d, s := def["PL008"], strict["PL008"]; d.FP != 1 || s.TP != 1 {
		t.Errorf("name-check site: default %+v, strict %+v; want a false positive by default and a true one under -strict", *d, *s)
	}
	if p := def["PL007"]; p.TP != 1 || p.AtFix != 1 || p.Unlabelled != 1 {
		t.Errorf("PL007 tally %+v", *p)
	}
}

// TestScopesOverlap checks that two sites of one rule may not claim the
// same declaration, and that an unknown scope name is an error naming the
// sites line.
func TestScopesOverlap(t *testing.T) {
	dir := writeModule(t)
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{
			site("example.com/m@v1.0.0", "p/p.go", "10", "PL007", "bad", "-", "v"),
			site("example.com/m@v1.0.0", "p/p.go", "4", "PL007", "good", "T.Stop", "v"),
		}, "both PL007 sites claim T.Stop"},
		{[]string{site("example.com/m@v1.0.0", "p/p.go", "10", "PL007", "bad", "Missing", "v")}, "sites line 3"},
		{[]string{site("example.com/m@v1.0.0", "p/q.go", "10", "PL007", "bad", "-", "v")}, "q.go"},
	} {
		sites, err := ReadSites(writeSites(t, tc.lines...))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := scopes(sites, NewDecls(dir)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one containing %q", err, tc.want)
		}
	}
}

// TestParseFindings checks go vet -json's tree with an analyzer error
// entry, absolute positions mapped into the module, and the rule taken
// from the message.
func TestParseFindings(t *testing.T) {
	dir := t.TempDir()
	out := `{"example.com/m/p": {"pidlint": [
		{"category": "raw-probe", "posn": "` + filepath.Join(dir, "p", "p.go") + `:10:2", "message": "PL001: kill(pid, 0) ..."}]},
		"example.com/m/q": {"pidlint": {"error": "does not type-check"}}}`
	fs, err := parseFindings([]byte(out), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Rule != "PL001" || fs[0].File != "p/p.go" || fs[0].Line != 10 {
		t.Errorf("findings %+v", fs)
	}
	if _, err := parseFindings([]byte(`{"x": {"pidlint": [{"posn": "/elsewhere/p.go:1:1", "message": "PL007: m"}]}}`), dir); err == nil {
		t.Errorf("a position outside the module copy is accepted")
	}
}

// TestPrepareVendorMod checks that a module without go.mod but with
// vendor.mod (a +incompatible module) gets them as go.mod and go.sum, and
// that one with neither is refused.
func TestPrepareVendorMod(t *testing.T) {
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "vendor.mod"), []byte("module example.com/m\n"), 0o444)
	os.WriteFile(filepath.Join(src, "vendor.sum"), []byte(""), 0o444)
	dst := filepath.Join(t.TempDir(), "copy")
	if err := prepare(src, dst); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "go.mod")); err != nil || string(data) != "module example.com/m\n" {
		t.Errorf("go.mod %q, %v", data, err)
	}
	if err := prepare(t.TempDir(), filepath.Join(t.TempDir(), "copy")); err == nil || !strings.Contains(err.Error(), "neither go.mod nor vendor.mod") {
		t.Errorf("a module without go.mod: error %v", err)
	}
}

// TestDownloadFailureNamesModule checks that a module the proxy does not
// serve fails its own scoring with the module named, and that the report
// lists it as not scored while the other modules go on.
func TestDownloadFailureNamesModule(t *testing.T) {
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	t.Setenv("GOMODCACHE", t.TempDir())
	mod := module{name: "example.com/not/served@v1.2.3", sites: []*Site{{Module: "example.com/not/served@v1.2.3", File: "a.go", Line: 1, Rule: "PL007", Label: "bad"}}}
	res := scoreModule("/bin/true", t.TempDir(), mod, false, false)
	if res.Err == nil || !strings.Contains(res.Err.Error(), "example.com/not/served@v1.2.3") {
		t.Fatalf("error %v, want one naming the module", res.Err)
	}
	rep := &Report{}
	rep.Add(res)
	var b strings.Builder
	rep.Text(&b)
	if !strings.Contains(b.String(), "FAILED: example.com/not/served@v1.2.3 (1 sites not scored)") {
		t.Errorf("report does not list the failure:\n%s", b.String())
	}
	if md := rep.Markdown(); !strings.Contains(md, "Not scored: example.com/not/served@v1.2.3") {
		t.Errorf("markdown does not list the failure:\n%s", md)
	}
}
