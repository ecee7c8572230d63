package plan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pidlint/pidlint/analyzer"
)

// TestPlanPrefilter checks the scan that decides which files need another
// GOOS's build: every call a rule looks at is seen, and names that only
// look like one (a conversion, a method without the argument, an import
// path, a command that runs no probe, a variable named ps) are not.
func TestPlanPrefilter(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{`err := syscall.Kill(pid, 0)`, true},
		{`unix.Kill(pid, unix.Signal(0))`, true},
		{`return p.Signal(syscall.Signal(0)) == nil`, true},
		{`return getProcess().Signal(
			sig)`, true},
		{`p, err := os.FindProcess(pid)`, true},
		{`unix.Syscall(unix.SYS_KILL, uintptr(pid), 0, 0)`, true},
		{`_, err := os.Stat("/proc/" + strconv.Itoa(pid))`, true},
		{"_, err := os.Stat(filepath.Join(`/proc`, pid))", true},
		{`exec.Command("kill", "-0", strconv.Itoa(pid)).Run()`, true},
		{`exec.Command("/usr/bin/ps", "-p", pid)`, true},
		{`exec.CommandContext(ctx, "tasklist.exe", "/FI", "PID eq "+pid)`, true},
		{"exec.Command(\"sh\", \"-c\", `\n\tkill -0 $pid`)", true},
		{`exec.Command("sh", "-c", "pgrep podman")`, true},

		{`var sigs = map[string]syscall.Signal{"HUP": syscall.Signal(0x1)}`, false},
		{`go callbackFuncs.CleanOnSignal()`, false},
		{`return fmt.Errorf("terminated by %s", status.Signal().String())`, false},
		{`func sigKill(_ int) error { return nil }`, false},
		{`import psutil "github.com/shirou/gopsutil/v4/process"`, false},
		{`out, err := exec.Command("sw_vers", "--productVersion").Output()`, false},
		{"fn(func(ps *Settings) { ps.Quantity = n })\nexec.Command(\"powershell\", \"-command\", script)", false},
		{`var c *cobra.Command; var s os.Signal`, false},
		{"// pgrep emulates pgrep: kill -0 is not on Windows\nfunc pgrep(n string) {\n\texec.Command(\"tasklist.exe\", \"/fi\", \"IMAGENAME eq \"+n)\n}", false},
	} {
		if got := analyzer.MayReport([]byte(tc.src)); got != tc.want {
			t.Errorf("analyzer.MayReport(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestPackagesForGOFLAGSTags checks that the plan sees the files the go
// command sees: with GOFLAGS=-tags=remote a FreeBSD file marked !remote
// is not built, so its package needs no FreeBSD build (planned, it would
// fail the whole FreeBSD go vet run: "build constraints exclude all Go
// files").
func TestPackagesForGOFLAGSTags(t *testing.T) {
	dir := t.TempDir()
	src := "//go:build !remote\n\npackage p\n\nimport \"syscall\"\n\nfunc alive(pid int) bool { return syscall.Kill(pid, 0) == nil }\n"
	if err := os.WriteFile(filepath.Join(dir, "p_freebsd.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	p := &Plan{Dir: dir, GOOS: []string{"linux", "freebsd"}, Patterns: []string{"."}, walked: []string{dir}, byWalk: true}
	for _, tc := range []struct {
		goflags string
		want    int
	}{
		{"", 1},
		{"-mod=mod", 1},
		{"-tags=remote", 0},
		{"-mod=mod --tags=other,remote", 0},
	} {
		t.Setenv("GOFLAGS", tc.goflags)
		b, err := p.Build("freebsd")
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Patterns) != tc.want {
			t.Errorf("GOFLAGS=%q: planned %v for freebsd, want %d packages", tc.goflags, b.Patterns, tc.want)
		}
	}
}
