package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/pidlint/pidlint/internal/config"
	"github.com/pidlint/pidlint/internal/rules"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// TestExplainMarkdown checks that the binary's -explain -markdown is the
// generator the drift test names.
func TestExplainMarkdown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint")
	}
	t.Parallel()
	r := mustRun(t, 0, ".", nil, pidlintBin(t), "-explain", "-markdown")
	if want := readFile(t, filepath.Join(repoRoot, "docs", "rules.md")); r.stdout != want {
		t.Errorf("pidlint -explain -markdown differs from docs/rules.md")
	}
	r = mustRun(t, 0, ".", nil, pidlintBin(t), "-explain", "PL004")
	if !strings.HasPrefix(r.stdout, "PL004 proc-stat: ") {
		t.Errorf("pidlint -explain PL004:\n%s", r.stdout)
	}
}

// TestDirectivesDocumented checks that the pages that tell users how to
// silence a finding name both directives, that rules go by name too, and
// the category of a bad directive's report.
func TestDirectivesDocumented(t *testing.T) {
	for _, page := range []string{"README.md", "docs/rules.md", "docs/golangci-lint.md", "analyzer/doc.go"} {
		// Lines joined, doc comments' "//" dropped.
		text := strings.Join(strings.Fields(strings.ReplaceAll(readFile(t, filepath.Join(repoRoot, page)), "\n//", "\n")), " ")
		for _, s := range []string{"//pidlint:ignore", "//pidlint:file-ignore", "or name", "bad-ignore"} {
			if !strings.Contains(text, s) {
				t.Errorf("%s does not say %q", page, s)
			}
		}
	}
}

// routesHeading is the README's section with the one table of which route
// sees which OS's code.
const routesHeading = "### Which route sees which OS's files"

// TestRoutesTable checks the README's table of routes against what each
// does: the standalone run analyzes every GOOS of -goos (whose default the
// README names) and every language pidlint has a front end for, go vet,
// go fix, golangci-lint and editors the host's GOOS only and Go only; the
// other pages that describe a one-GOOS route link to the table.
func TestRoutesTable(t *testing.T) {
	readme := readFile(t, filepath.Join(repoRoot, "README.md"))
	_, section, ok := strings.Cut(readme, "\n"+routesHeading+"\n")
	if !ok {
		t.Fatalf("README.md has no %q section", routesHeading)
	}
	type row struct{ goos, languages string }
	rows := map[string]row{} // route: GOOS and languages analyzed
	for line := range strings.SplitSeq(section, "\n") {
		if strings.HasPrefix(line, "#") {
			break
		}
		cells := strings.Split(line, "|")
		if len(cells) < 6 || strings.HasPrefix(cells[1], "---") || strings.TrimSpace(cells[1]) == "route" {
			continue
		}
		rows[strings.TrimSpace(cells[1])] = row{strings.TrimSpace(cells[2]), strings.TrimSpace(cells[4])}
	}
	for _, tc := range []struct{ route, goos, languages string }{
		{"`pidlint ./...` (standalone)", "every GOOS of `-goos`, in one run", "every language pidlint has a front end for"},
		{"`go vet -vettool=$(command -v pidlint)`", "the host's only", "Go only"},
		{"`go fix -fixtool=$(command -v pidlint)`", "the host's only", "Go only"},
		{"golangci-lint with the plugin", "the host's only", "Go only"},
		{"editors and gopls", "the host's only", "Go only"},
	} {
		found := false
		for route, r := range rows {
			if strings.HasPrefix(route, tc.route) {
				found = true
				if !strings.HasPrefix(r.goos, tc.goos) {
					t.Errorf("route %s: GOOS %q, want %q", route, r.goos, tc.goos)
				}
				if !strings.HasPrefix(r.languages, tc.languages) {
					t.Errorf("route %s: languages %q, want %q", route, r.languages, tc.languages)
				}
			}
		}
		if !found {
			t.Errorf("the routes table has no row for %s; rows: %q", tc.route, rows)
		}
	}
	if def := "(default `" + config.DefaultGOOS + "`)"; !strings.Contains(readme, def) {
		t.Errorf("README.md does not give -goos's default as %s", def)
	}
	// The README's command lines for the one-GOOS routes are in the table.
	for _, cmd := range []string{"go vet -vettool=$(command -v pidlint)", "go fix -fixtool=$(command -v pidlint)"} {
		if !strings.Contains(readme, cmd+" ./...") {
			t.Errorf("README.md does not run %s", cmd)
		}
	}
	anchor := "../README.md#" + githubSlug(strings.TrimPrefix(routesHeading, "### "))
	for _, page := range []string{"docs/golangci-lint.md", "docs/editors.md"} {
		text := readFile(t, filepath.Join(repoRoot, page))
		if !strings.Contains(text, "("+anchor+")") || !strings.Contains(text, "host's GOOS") {
			t.Errorf("%s does not say it sees the host's GOOS and link to %s", page, anchor)
		}
	}
}

// githubSlug is the anchor GitHub gives a heading: lower case, spaces as
// hyphens, other punctuation dropped.
func githubSlug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestFlagsDocumented checks that the README names every flag the
// binary's help screen lists.
func TestFlagsDocumented(t *testing.T) {
	readme := readFile(t, filepath.Join(repoRoot, "README.md"))
	help := runDriver(t, t.TempDir(), "-help").stdout
	flags := regexp.MustCompile(`(?m)^  -([\w-]+)`).FindAllStringSubmatch(help, -1)
	if len(flags) < 15 {
		t.Fatalf("the help screen lists %d flags:\n%s", len(flags), help)
	}
	for _, f := range flags {
		if !regexp.MustCompile(`(^|[^\w-])-` + regexp.QuoteMeta(f[1]) + `($|[^\w-])`).MatchString(readme) {
			t.Errorf("README.md does not name -%s", f[1])
		}
	}
}

// docPages are the files that tell users how to install and run pidlint.
var docPages = []string{
	"README.md", "docs/golangci-lint.md", "docs/editors.md", "docs/pidlint.mk",
	"action.yml", ".github/workflows/pidlint.yml", ".pre-commit-hooks.yaml", ".custom-gcl.yml", "Makefile",
}

// releaseRoute matches a command or setting that fetches a released
// pidlint: go install or go get of a version of the module, a plugin
// version.
var releaseRoute = regexp.MustCompile(`github\.com/pidlint/pidlint(/[\w/.-]+)?@(latest|v[X1-9]|\$)|vX\.Y\.Z`)

// TestReleaseRoutesSaySo checks that every install route that needs a
// published release says, within a few lines, that none is tagged yet and
// gives a route that works today.
func TestReleaseRoutesSaySo(t *testing.T) {
	seen := 0
	for _, page := range docPages {
		lines := strings.Split(readFile(t, filepath.Join(repoRoot, page)), "\n")
		for i, line := range lines {
			if !releaseRoute.MatchString(line) {
				continue
			}
			seen++
			window := strings.ToLower(strings.Join(lines[max(0, i-12):min(len(lines), i+13)], " "))
			window = strings.Join(strings.Fields(strings.ReplaceAll(window, "\n#", " ")), " ")
			if !containsAny(window, "none is tagged yet", "no such tag exists yet", "needs a published release") {
				t.Errorf("%s:%d: %q needs a published release and does not say none is tagged yet", page, i+1, strings.TrimSpace(line))
			}
			if !containsAny(window, "go install ./cmd/pidlint", "go run ./cmd/pidlint", "path:", "replace directive", "vendored copy") {
				t.Errorf("%s:%d: %q gives no route that works without a release", page, i+1, strings.TrimSpace(line))
			}
		}
	}
	if seen < 4 {
		t.Errorf("%d release routes found; the pattern no longer matches the docs", seen)
	}
}

// TestPluginBuildNeedsProxy checks that the pages that build the
// golangci-lint plugin say, where they first name make golangci, that it
// needs the Go module proxy, and nowhere call it offline.
func TestPluginBuildNeedsProxy(t *testing.T) {
	for _, page := range docPages {
		lines := strings.Split(readFile(t, filepath.Join(repoRoot, page)), "\n")
		first := true
		for i, line := range lines {
			if !containsAny(line, "make golangci", "custom-gcl") {
				continue
			}
			if near := strings.Join(lines[max(0, i-2):min(len(lines), i+3)], " "); strings.Contains(strings.ToLower(near), "offline") {
				t.Errorf("%s:%d: the plugin build is called offline near %q; it needs the Go module proxy", page, i+1, strings.TrimSpace(line))
			}
			if first && strings.Contains(line, "make golangci") {
				first = false
				if near := strings.Join(lines[max(0, i-6):min(len(lines), i+7)], " "); !strings.Contains(strings.Join(strings.Fields(near), " "), "module proxy") {
					t.Errorf("%s:%d: the first mention of make golangci does not say it needs the Go module proxy", page, i+1)
				}
			}
		}
	}
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// claimPages are the pages that say what is and is not a correct probe.
var claimPages = []string{"README.md", "docs/rules.md", "docs/benchmarks.md", "docs/golangci-lint.md", "docs/editors.md"}

// TestLivenessClaims checks that no page, and no rule's text, calls an
// incomplete probe correct: a paragraph that names gopsutil's PidExists or
// pidfd_send_signal (or the one before, for a table) says that it reads a
// zombie as alive, a sentence that calls a pidfd liveness probe correct
// means a pidfd polled for exit (or says a zombie passes), and systemd's
// Restart= is not said to loop for ever (it gives up after StartLimitBurst
// failed starts).
func TestLivenessClaims(t *testing.T) {
	type paragraph struct{ where, text string }
	var paras []paragraph
	for _, page := range claimPages {
		for i, p := range strings.Split(readFile(t, filepath.Join(repoRoot, page)), "\n\n") {
			paras = append(paras, paragraph{fmt.Sprintf("%s paragraph %d", page, i+1), p})
		}
	}
	for _, r := range rules.All() {
		paras = append(paras, paragraph{r.ID + " text", r.Text})
	}
	sentenceEnd := regexp.MustCompile(`[.!?](\s|$)`)
	for i, p := range paras {
		text := strings.Join(strings.Fields(p.text), " ")
		if containsAny(text, "PidExists", "pidfd_send_signal") && !strings.Contains(text, "zombie") &&
			!(strings.HasPrefix(text, "|") && i > 0 && strings.Contains(paras[i-1].text, "zombie")) {
			t.Errorf("%s names PidExists or pidfd_send_signal without saying it reads a zombie as alive", p.where)
		}
		for _, sentence := range sentenceEnd.Split(text, -1) {
			lower := strings.ToLower(sentence)
			if strings.Contains(lower, "pidfd") && containsAny(lower, "correct", "not reported") && containsAny(lower, "alive", "dead", "liveness") && !containsAny(lower, "poll", "zombie") {
				t.Errorf("%s calls pidfd code correct without saying it polls for exit (or that a zombie passes): %q", p.where, sentence)
			}
			if strings.Contains(sentence, "Restart=") && (containsAny(lower, "endless", "for ever", "forever") || !strings.Contains(sentence, "StartLimitBurst")) {
				t.Errorf("%s overstates systemd's Restart= (it gives up after StartLimitBurst failed starts): %q", p.where, sentence)
			}
		}
	}
}
