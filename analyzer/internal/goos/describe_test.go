package goos

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPorts checks Ports against the toolchain's list of ports.
func TestPorts(t *testing.T) {
	out, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		t.Skipf("go tool dist list: %v", err)
	}
	var want Set
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		goos, _, _ := strings.Cut(line, "/")
		if Of(goos) == 0 {
			t.Errorf("port %s is not in Known", line)
		}
		want |= Of(goos)
	}
	if Ports != want {
		t.Errorf("Ports = %s; go tool dist list has %s", Ports, want)
	}
}

// TestDescribe checks that the phrase reads right in the analyzer's
// sentences, negative ones included, and names only ports.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		s    Set
		want string
	}{
		{All, "every OS"},
		{All &^ Windows, "any OS but windows"},
		{All &^ Linux, "any OS but linux"},
		{All &^ Of("linux", "android", "windows"), "any OS but linux and windows"},
		{All &^ Unix, "js, plan9, wasip1 and windows"},
		{Unix, "every Unix"},
		{Unix | Of("js", "wasip1"), "any OS but plan9 and windows"},
		{Unix | Of("js"), "every Unix and js"},
		{Of("darwin", "ios", "linux"), "darwin and linux"},
		{Of("linux"), "linux"},
		{Of("android"), "android"},
		{Of("zos", "nacl"), "no OS"},
	} {
		if got := Describe(tc.s); got != tc.want {
			t.Errorf("Describe(%s) = %q, want %q", tc.s, got, tc.want)
		}
	}
	// The negative sentences of PL003 and PL004, for a file that builds
	// everywhere.
	if got := "os.FindProcess never fails on " + Describe(All&^Windows); got != "os.FindProcess never fails on any OS but windows" {
		t.Errorf("PL003 reads %q", got)
	}
	if got := "/proc/<pid> is not there on " + Describe(NoProcfs); got != "/proc/<pid> is not there on darwin, dragonfly, freebsd, js, netbsd, openbsd, wasip1 and windows" {
		t.Errorf("PL004 reads %q", got)
	}
}
