package shellcmd

import "testing"

// TestClassify checks the command lines that probe a PID, and the ones
// that look like them and do not: a signal, children listed, a process's
// fields read, tasklist without its PID filter.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want Probe
	}{
		{"kill", []string{"-0", ""}, KillZero},
		{"/bin/kill", []string{"-s", "0", ""}, KillZero},
		{"kill", []string{"-9", ""}, NoProbe},
		{"kill", []string{"-n", "0", ""}, KillZero},
		{"kill", []string{"-s", "EXIT", ""}, KillZero},
		{"ps", []string{""}, PsPID},
		{"ps", []string{"-ef"}, NoProbe},
		{"ps", []string{"", "-o", "comm="}, NoProbe},
		{"ps", []string{"-p", ""}, PsPID},
		{"ps", []string{"-p", "", "-o", "comm="}, NoProbe},
		{"ps", []string{"-p", "", "-o", "pid="}, PsPID},
		{"pgrep", []string{"daemon"}, Pgrep},
		{"pgrep", []string{"-P", ""}, NoProbe},
		{"pkill", []string{"-0", "daemon"}, PkillZero},
		{"pkill", []string{"daemon"}, NoProbe},
		{"lsof", []string{"-p", ""}, LsofPID},
		{`C:\Windows\System32\TASKLIST.EXE`, []string{"/FI", "PID eq N"}, TasklistPID},
		{"tasklist", []string{"/FI", "IMAGENAME eq d.exe"}, NoProbe},
		{"sh", []string{"-c", "kill -0 $pid"}, KillZero},
		{"bash", []string{"-c", "ps -o pid= -p $pid"}, PsPID},
		{"sh", []string{"-c", "kill $pid"}, NoProbe},
		{"echo", []string{"kill", "-0"}, NoProbe},
	} {
		if got := Classify(tc.name, tc.args); got != tc.want {
			t.Errorf("Classify(%q, %q) = %v, want %v", tc.name, tc.args, got, tc.want)
		}
	}
}

// TestProbeTexts checks that every probe says what it is, what is wrong
// with it and where it runs, as messages print them.
func TestProbeTexts(t *testing.T) {
	for p := KillZero; p <= TasklistPID; p++ {
		if p.What() == "" || p.Flaw() == "" {
			t.Errorf("probe %d: what %q, flaw %q", p, p.What(), p.Flaw())
		}
		if p.Windows() != (p == TasklistPID) {
			t.Errorf("%s: Windows() = %v", p.What(), p.Windows())
		}
	}
	if NoProbe.What() != "" {
		t.Errorf("NoProbe names %q", NoProbe.What())
	}
	if Name(`C:\bin\Kill.EXE`) != "kill" || Name("/usr/bin/pkill") != "pkill" {
		t.Errorf("Name: %q, %q", Name(`C:\bin\Kill.EXE`), Name("/usr/bin/pkill"))
	}
}
