package analyzer_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pidlint/pidlint/analyzer"
)

// testdata is the GOPATH-style tree of test packages at the repository's
// top, testdata/src: where the repository layout promises them.
var testdata = func() string {
	dir, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		panic(err)
	}
	return dir
}()

func TestKillZero(t *testing.T) {
	t.Parallel()
	hostFixes.run(t, "killzero", "killzeroimports")
}

func TestSignalZero(t *testing.T) {
	t.Parallel()
	hostFixes.run(t, "signalzero")
}

func TestFindProcess(t *testing.T) {
	t.Parallel()
	hostFixes.run(t, "findprocess")
}

// TestFindProcessWindows loads findprocesswindows for windows, where its
// _windows.go file is type-checked: FindProcess as the verdict is wrong
// there too.
func TestFindProcessWindows(t *testing.T) {
	t.Setenv("GOOS", "windows")
	analysistest.RunWithSuggestedFixes(t, testdata, analyzer.Analyzer, "findprocesswindows")
}

func TestProcStat(t *testing.T) {
	t.Parallel()
	hostFixes.run(t, "procstat")
}

func TestShellProbe(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "shellprobe")
}

func TestWrapper(t *testing.T) {
	t.Parallel()
	hostFixes.run(t, "wrapper/procutil", "wrapper/daemon")
}

func TestIgnore(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "ignore")
}

// TestFileIgnore: //pidlint:file-ignore suppresses the rules it names,
// by ID or name, in its whole file; a bad one suppresses nothing.
func TestFileIgnore(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "fileignore")
}

// TestFileIgnoreWindowsTyped loads fileignorewindows for windows, where
// its directives meet the typed rules' findings.
func TestFileIgnoreWindowsTyped(t *testing.T) {
	t.Setenv("GOOS", "windows")
	analysistest.Run(t, testdata, analyzer.Analyzer, "fileignorewindows")
}

// TestFileIgnoreOnOtherHost loads fileignorewindows for linux, where its
// file is checked from its syntax alone: the file-ignore suppresses the
// Signal(0) that check finds, and the line directive for PL004, a rule
// the check does not run, is not called stale.
func TestFileIgnoreOnOtherHost(t *testing.T) {
	t.Setenv("GOOS", "linux")
	for _, res := range analysistest.Run(discard{}, testdata, analyzer.Analyzer, "fileignorewindows") {
		for _, d := range res.Diagnostics {
			t.Errorf("%s: %s", res.Pass.Fset.Position(d.Pos), d.Message)
		}
	}
}

// TestBadIgnoreCategory: a report about a bad directive has the category
// bad-ignore and belongs to no rule; a stale one has no category.
func TestBadIgnoreCategory(t *testing.T) {
	t.Parallel()
	bad := 0
	for _, res := range hostResults(t, "ignore", "fileignore") {
		for _, d := range res.Diagnostics {
			r, isRule := analyzer.RuleOf(d)
			switch {
			case strings.Contains(d.Message, "unknown rule") || strings.Contains(d.Message, "needs a reason") || strings.HasPrefix(d.Message, "malformed"):
				bad++
				if d.Category != analyzer.BadIgnore || isRule {
					t.Errorf("%q: category %q, rule %s; want %s and no rule", d.Message, d.Category, r.ID, analyzer.BadIgnore)
				}
			case strings.Contains(d.Message, "matched nothing"):
				if d.Category != "" || isRule {
					t.Errorf("%q: category %q, rule %s; want none", d.Message, d.Category, r.ID)
				}
			case !isRule:
				t.Errorf("%q: category %q names no rule", d.Message, d.Category)
			}
		}
	}
	if bad < 8 {
		t.Errorf("%d reports of bad directives, want at least 8", bad)
	}
}

func TestStrict(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, testdata, analyzer.New(analyzer.Config{Strict: true}), "strict")
}

// TestWindowsFileTyped loads signalwindows for windows, where its
// _windows.go file is type-checked: the typed rule reports it.
func TestWindowsFileTyped(t *testing.T) {
	t.Setenv("GOOS", "windows")
	analysistest.Run(t, testdata, analyzer.Analyzer, "signalwindows")
}

// TestWindowsFileOnOtherHost loads signalwindows for linux, where its
// _windows.go file does not build: the syntax-level check still reports
// its Signal(0). (analysistest reads expectations only from files that
// build, so the finding is checked here by hand.)
func TestWindowsFileOnOtherHost(t *testing.T) {
	t.Setenv("GOOS", "linux")
	var rec recorder
	results := analysistest.Run(&rec, testdata, analyzer.Analyzer, "signalwindows")
	var found []string
	for _, res := range results {
		for _, d := range res.Diagnostics {
			pos := res.Pass.Fset.Position(d.Pos)
			found = append(found, fmt.Sprintf("%s:%d: %s", filepath.Base(pos.Filename), pos.Line, d.Message))
		}
	}
	want := "signalwindows_windows.go:10: PL002: Process.Signal(0) always fails on windows (where this code builds): every process reads as dead; use safeprobe.CheckProcess"
	if len(found) != 1 || found[0] != want {
		t.Errorf("diagnostics = %q, want [%q]", found, want)
	}
	for _, msg := range rec {
		if !strings.Contains(msg, "unexpected diagnostic") || !strings.Contains(msg, "signalwindows_windows.go:10") {
			t.Errorf("analysistest: %s", msg)
		}
	}
}

type recorder []string

func (r *recorder) Errorf(format string, args ...any) { *r = append(*r, fmt.Sprintf(format, args...)) }

func TestCustomSafeprobePath(t *testing.T) {
	t.Parallel()
	a := analyzer.New(analyzer.Config{SafeprobePath: "example.com/vendored/safeprobe"})
	analysistest.RunWithSuggestedFixes(t, testdata, a, "customsafeprobe")
}

func TestNegatives(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "negatives")
}

func TestDisable(t *testing.T) {
	t.Parallel()
	a := analyzer.New()
	if err := a.Flags.Set("disable", "PL001,signal-zero"); err != nil {
		t.Fatal(err)
	}
	checkDisabled(t, a)
	if err := a.Flags.Set("disable", "PL009"); err == nil {
		t.Error("-disable=PL009 accepted an unknown rule")
	}
}

// TestConfigDisable checks that Config.Disable, the API drivers call,
// takes rule names as -disable does, not only IDs.
func TestConfigDisable(t *testing.T) {
	t.Parallel()
	checkDisabled(t, analyzer.New(analyzer.Config{Disable: []string{"kill-zero", "PL002"}}))
}

// checkDisabled runs a, which has PL001 and PL002 disabled, on packages
// that break those rules and PL006: only PL006 may be reported.
func checkDisabled(t *testing.T, a *analysis.Analyzer) {
	t.Helper()
	others := 0
	for _, res := range analysistest.Run(discard{}, testdata, a, "killzero", "signalzero") {
		for _, d := range res.Diagnostics {
			if d.Category == "PL001" || d.Category == "PL002" {
				t.Errorf("disabled rule reported: %s", d.Message)
			} else {
				others++
			}
		}
	}
	if others == 0 {
		t.Error("the rules left enabled reported nothing (killzero has a PL006)")
	}
}

func TestConfigDisableUnknown(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `unknown rule "no-such-rule"`) {
			t.Errorf("New with an unknown rule in Config.Disable: recovered %v, want a panic naming it", r)
		}
	}()
	analyzer.New(analyzer.Config{Disable: []string{"no-such-rule"}})
}

func TestParseRules(t *testing.T) {
	ids, err := analyzer.ParseRules(" PL001, shell-probe,,pl004 ")
	if err != nil || strings.Join(ids, ",") != "PL001,PL005,PL004" {
		t.Errorf("ParseRules = %q, %v; want PL001,PL005,PL004", ids, err)
	}
	_, err = analyzer.ParseRules("PL001,kill-zer0")
	if err == nil || !strings.Contains(err.Error(), `unknown rule "kill-zer0"`) || !strings.Contains(err.Error(), "PL006 wrapper") {
		t.Errorf("ParseRules(kill-zer0) error = %v, want one naming it and listing the rules", err)
	}
}

// TestRuleOf checks that every diagnostic of a rule, -strict ones (category
// raw-probe) too, names its rule in fields a driver reads.
func TestRuleOf(t *testing.T) {
	t.Parallel()
	a := analyzer.New(analyzer.Config{Strict: true})
	seen := map[string]bool{}
	for _, res := range analysistest.Run(discard{}, testdata, a, "strict", "killzero") {
		for _, d := range res.Diagnostics {
			r, ok := analyzer.RuleOf(d)
			id, _, _ := strings.Cut(d.Message, ": ")
			if strings.Contains(d.Message, "pidlint:ignore") {
				if ok {
					t.Errorf("directive diagnostic has rule %s: %s", r.ID, d.Message)
				}
				continue
			}
			if !ok || r.ID != id {
				t.Errorf("RuleOf(%q, %q) = %s, %v; message %q", d.Category, d.URL, r.ID, ok, d.Message)
			}
			seen[d.Category] = true
		}
	}
	if !seen[analyzer.RawProbe] || len(seen) < 2 {
		t.Errorf("categories seen: %v; want raw-probe and rule IDs", seen)
	}
}

// TestRuleFix checks each rule's Fix against the testdata: a rule that
// says it fixes has findings with fixes there, one that does not has none.
func TestRuleFix(t *testing.T) {
	t.Parallel()
	fixes := map[string]bool{}
	for _, res := range hostResults(t, append(fixedPackages, "shellprobe")...) {
		for _, d := range res.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				fixes[d.Category] = true
			}
		}
	}
	for _, r := range analyzer.Rules {
		if fixes[r.ID] != r.Fix {
			t.Errorf("%s: Fix = %v, but the testdata has fixes: %v", r.ID, r.Fix, fixes[r.ID])
		}
	}
}

func TestSignalStale(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "signalstale", "signalstale/pidfile", "signalstale/ctl")
	hostFixes.run(t, "signalstalefix")
}

// TestSignalStaleCommand: kill, pkill -F and taskkill run through
// exec.Command with a PID from a file.
func TestSignalStaleCommand(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "signalstalecmd")
}

// TestSignalStaleWide: a PID parsed wider than 32 bits and checked only
// for > 0 reaches kill(2) as -1.
func TestSignalStaleWide(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "signalstalewide")
}

// TestSignalNil: Process.Signal(nil) fails on every OS.
func TestSignalNil(t *testing.T) {
	t.Parallel()
	hostFixes.run(t, "signalnil")
}

// TestErrorText: err.Error() compared with a gone process's message.
func TestErrorText(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "errtext")
}

// TestFindProcessLeak: os.FindProcess in a poll loop, or in a helper
// called from one, without Release is reported by default.
func TestFindProcessLeak(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "findprocessleak")
}

func TestPidfileBlock(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "pidfileblock", "pidfileblock/monitor")
}

// TestVendoredSafeprobe checks fixes for a safeprobe copy whose directory
// is not named after its package: the import they add is named, and a
// file that imports it under a name of its own keeps that name.
func TestVendoredSafeprobe(t *testing.T) {
	t.Parallel()
	a := analyzer.New(analyzer.Config{SafeprobePath: "example.com/m/internal/pidlintsafeprobe"})
	analysistest.RunWithSuggestedFixes(t, testdata, a, "example.com/m/daemon")
}

// TestDisablePackageRule: a disabled PL007 is not computed, but a
// //pidlint:ignore PL007 (or signal-unverified-pid, or a file-ignore)
// still finds the finding it suppresses.
func TestDisablePackageRule(t *testing.T) {
	t.Parallel()
	for _, disable := range []string{"", "PL007,PL008"} {
		a := analyzer.New()
		if err := a.Flags.Set("disable", disable); err != nil {
			t.Fatal(err)
		}
		for _, res := range analysistest.Run(discard{}, testdata, a, "signalstaleignore", "signalstalebyname") {
			for _, d := range res.Diagnostics {
				t.Errorf("-disable=%s: %s", disable, d.Message)
			}
		}
	}
}

func TestOwnChild(t *testing.T) {
	t.Parallel()
	hostFixes.run(t, "ownchild")
}

// TestGoLine runs on two modules, go 1.22 and go 1.26, loaded for linux
// and for darwin: own-child advice names Process.WithHandle only from 1.26
// on; FindProcess leaks, and Process.Signal(0) is safe from later PID
// reuse, on Linux only from 1.23 on.
func TestGoLine(t *testing.T) {
	for _, mod := range []string{"go122", "go126"} {
		for _, goos := range []string{"linux", "darwin"} {
			t.Run(mod+"/"+goos, func(t *testing.T) {
				t.Setenv("GOOS", goos)
				analysistest.Run(t, filepath.Join(testdata, "src", "goline", mod), analyzer.Analyzer, "./...")
			})
		}
	}
}

// TestUnixOnlyPackage checks that a package that cannot build for windows
// (a file that builds there by its name calls syscall.Kill, or imports
// golang.org/x/sys/unix) gets no message about windows, and that a test
// file that cannot does not take windows from the package's own files.
func TestUnixOnlyPackage(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "unixonly", "unixonlysys", "unixtestonly")
}

// TestProcStatUnix checks that PL004 names, among the OSes a file builds
// for, only those without /proc/<pid>.
func TestProcStatUnix(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "procstatunix")
}

// TestFoundOnly checks the fixes of a Signal(0) on a process found only to
// be probed: safeprobe.Alive or safeprobe.Check of the PID, and the
// FindProcess, its error check and the imports they leave unused deleted.
func TestFoundOnly(t *testing.T) {
	t.Parallel()
	hostFixes.run(t, "pidonly")
}

// TestKillZeroText checks that a probe decided by its error's text is
// said to read EPERM as dead only when the text names neither ESRCH's nor
// EPERM's message.
func TestKillZeroText(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "killzerotext")
}

// TestFindProcessProbed checks that PL003 leaves an os.FindProcess alone
// when a real probe of the same PID follows it.
func TestFindProcessProbed(t *testing.T) {
	t.Parallel()
	hostPlain.run(t, "findprocessprobed")
}
