package config

import (
	"flag"
	"slices"
	"strings"
	"testing"
)

// TestHelp checks the one help screen: every flag the command parses
// listed once in its group, the exit codes, no doubled "pidlint:" header.
func TestHelp(t *testing.T) {
	for _, arg := range []string{"-help"} {
		var buf strings.Builder
		WriteHelp(&buf)
		help := buf.String()
		if strings.Contains(help, "pidlint: pidlint") || !strings.HasPrefix(help, "pidlint reports ") {
			t.Errorf("pidlint %s: header:\n%.200s", arg, help)
		}
		// Every flag the parser knows, in exactly one group.
		fs := newSet(&Options{})
		var grouped []string
		for _, g := range flagGroups {
			grouped = append(grouped, g.flags...)
		}
		fs.VisitAll(func(f *flag.Flag) {
			if n := slices.Index(grouped, f.Name); n < 0 || slices.Index(grouped[n+1:], f.Name) >= 0 {
				t.Errorf("flag -%s is in %d help groups, want 1", f.Name, strings.Count(" "+strings.Join(grouped, " ")+" ", " "+f.Name+" "))
			}
			if strings.Count(help, "\n  -"+f.Name+"\n")+strings.Count(help, "\n  -"+f.Name+" ") != 1 {
				t.Errorf("pidlint %s does not list -%s once", arg, f.Name)
			}
		})
		for _, s := range []string{"-explain [-markdown]", "\n  -help\n", "Exit status", "\n  0  ", "\n  3  ", "\n  1  ", "\n  2  "} {
			if !strings.Contains(help, s) {
				t.Errorf("pidlint %s does not show %q", arg, s)
			}
		}
		// No flag the analyzer or singlechecker once had and that does
		// nothing now.
		for _, gone := range []string{"-c ", "-flags", "-cpuprofile", "-memprofile", "-trace", "-debug"} {
			if strings.Contains(help, "\n  "+gone) {
				t.Errorf("pidlint %s lists %s", arg, gone)
			}
		}
	}
}
