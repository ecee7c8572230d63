package shellcmd

import "testing"

// TestSignalOf: the real signals kill, pkill -F and taskkill /PID send,
// and the probes and name patterns that are not one.
func TestSignalOf(t *testing.T) {
	v := Arg{Var: true}
	c := func(s string) Arg { return Arg{Text: s} }
	for _, tc := range []struct {
		name     string
		args     []Arg
		ok       bool
		pid      int
		what     string
		fromFile bool
		windows  bool
	}{
		{"kill", []Arg{v}, true, 0, "SIGTERM", false, false},
		{"/bin/kill", []Arg{c("-9"), v}, true, 1, "-9", false, false},
		{"kill", []Arg{c("-s"), c("hup"), v}, true, 2, "SIGHUP", false, false},
		{"kill", []Arg{c("-0"), v}, false, 0, "", false, false},
		{"kill", []Arg{c("-s"), c("0"), v}, false, 0, "", false, false},
		{"kill", []Arg{c("1234")}, false, 0, "", false, false}, // no value followed
		{"pkill", []Arg{c("-F"), v}, true, 1, "SIGTERM", true, false},
		{"pkill", []Arg{c("-HUP"), c("-F"), v}, true, 2, "-HUP", true, false},
		{"pkill", []Arg{c("-L"), c("-F"), v}, false, 0, "", false, false},
		{"pkill", []Arg{v}, false, 0, "", false, false},          // a name pattern
		{"pkill", []Arg{c("-f"), v}, false, 0, "", false, false}, // -f: a command line pattern, not -F
		{"pkill", []Arg{c("-9"), c("--pidfile"), v}, true, 2, "-9", true, false},
		{"kill", []Arg{c("-n"), c("0"), v}, false, 0, "", false, false},
		{"kill", []Arg{c("-s"), c("EXIT"), v}, false, 0, "", false, false},
		{"kill", []Arg{c("-n"), c("9"), v}, true, 2, "-9", false, false},
		{"TASKKILL.EXE", []Arg{c("/F"), c("/PID"), v}, true, 2, "a forced termination (/F)", false, true},
		{"taskkill", []Arg{c("/IM"), v}, false, 0, "", false, false},
	} {
		s, ok := SignalOf(tc.name, tc.args)
		if ok != tc.ok || ok && (s.PID != tc.pid || s.What != tc.what || s.FromFile != tc.fromFile || s.Windows != tc.windows) {
			t.Errorf("SignalOf(%q, %v) = %+v, %v; want PID %d %q file=%v windows=%v, %v", tc.name, tc.args, s, ok, tc.pid, tc.what, tc.fromFile, tc.windows, tc.ok)
		}
	}
}

// TestPIDFileArg: the PID file operand of pkill -F and pgrep -F, and not
// pkill -f's pattern.
func TestPIDFileArg(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"pkill", []string{"-F", "/run/a.pid"}, 1},
		{"/usr/bin/pgrep", []string{"-x", "--pidfile", "a.pid"}, 2},
		{"pkill", []string{"-f", "daemon"}, -1},
		{"pkill", []string{"-F"}, -1},
		{"kill", []string{"-F", "x"}, -1},
	} {
		if got := PIDFileArg(tc.name, tc.args); got != tc.want {
			t.Errorf("PIDFileArg(%q, %q) = %d, want %d", tc.name, tc.args, got, tc.want)
		}
	}
}

// TestPsFields: what ps -o reads of a process.
func TestPsFields(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		name, start bool
	}{
		{[]string{"-p", "1", "-o", "comm="}, true, false},
		{[]string{"-o", "lstart=", "-p", "1"}, false, true},
		{[]string{"-o", "pid,args", "-p", "1"}, true, false},
		{[]string{"-p", "1"}, false, false},
	} {
		if name, start := PsFields(tc.args); name != tc.name || start != tc.start {
			t.Errorf("PsFields(%q) = %v, %v; want %v, %v", tc.args, name, start, tc.name, tc.start)
		}
	}
}
