package safeprobe

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// childEnv names the mode a re-executed test binary runs in instead of the
// tests: tests start real processes that run code of this package.
const childEnv = "SAFEPROBE_TEST_CHILD"

// childModes maps a mode name to what the child does; it must exit.
var childModes = map[string]func(){}

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		run, ok := childModes[mode]
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown %s=%q\n", childEnv, mode)
			os.Exit(2)
		}
		run()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// childCommand returns a command re-running this test binary in mode.
func childCommand(t testing.TB, mode string, env ...string) *exec.Cmd {
	t.Helper()
	if _, ok := childModes[mode]; !ok {
		t.Fatalf("no child mode %q", mode)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(append(os.Environ(), childEnv+"="+mode), env...)
	cmd.Stderr = os.Stderr
	return cmd
}
