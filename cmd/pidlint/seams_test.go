package main

import (
	"slices"
	"strings"
	"testing"
)

// storedModule reads a PID file in one package and signals the PID in
// another: PL007 needs the stored-PID fact of package state where package
// stop is analyzed.
var storedModule = map[string]string{
	"go.mod": "module example.com/stored\n\ngo 1.22\n",
	"state/state.go": `package state

import (
	"os"
	"strconv"
	"strings"
)

// DaemonPID returns the PID the daemon wrote into file.
func DaemonPID(file string) (int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(data)))
}
`,
	"stop/stop.go": `package stop

import (
	"syscall"

	"example.com/stored/state"
)

// Stop asks the daemon to stop.
func Stop(file string) error {
	pid, err := state.DaemonPID(file)
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM)
}
`,
}

// TestVetToolStoredPIDAcrossPackages runs go vet -vettool=pidlint on a
// module whose PID is read in one package and signalled in another: the
// stored-PID fact of the first crosses to the second, and PL007 is
// reported there. A shortcut for dependencies that export no fact once
// wrote package state's vetx from its declarations, without its facts,
// when state is only a dependency (go vet ./stop): that run comes first,
// as go vet keeps what the other leaves.
func TestVetToolStoredPIDAcrossPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and runs go vet")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := writeModule(t, storedModule)
	for _, args := range [][]string{{"./stop"}, {"./..."}} {
		r := run(t, dir, nil, "go", append([]string{"vet", "-vettool=" + bin}, args...)...)
		if got := vetFindings(r.stderr); !slices.Equal(got, []want{{"stop/stop.go", 15, "PL007"}}) {
			t.Errorf("go vet -vettool %s: %v, want PL007 at stop/stop.go:15\n%s", args[0], got, r.stderr)
		}
	}
}

// pidfileModule guards its start with an O_EXCL PID file in a file for
// windows and in one for darwin only: a run on Linux analyzes them in
// those GOOS builds.
var pidfileModule = map[string]string{
	"go.mod": "module example.com/guard\n\ngo 1.22\n",
	"guard/guard.go": `package guard

// File is where the daemon's PID is written.
const File = "/run/daemon.pid"
`,
	"guard/guard_windows.go": `package guard

import (
	"fmt"
	"os"
)

// Claim records this process as the one instance.
func Claim() error {
	f, err := os.OpenFile(File, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("already running: %w", err)
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "%d\n", os.Getpid())
	return err
}
`,
	"guard/guard_darwin.go": `package guard

import (
	"fmt"
	"os"
)

// Claim records this process as the one instance.
func Claim() error {
	if _, err := os.Stat(File); err == nil {
		return fmt.Errorf("already running: %s exists", File)
	}
	return os.WriteFile(File, []byte(fmt.Sprintf("%d\n", os.Getpid())), 0o644)
}
`,
}

// TestPidfileGuardOtherGOOS runs pidlint ./... on Linux on a module whose
// PID-file guards are in a _windows.go and a _darwin.go file: PL008 is
// reported in both, each naming its OS. The plan's scan of other-GOOS
// files once knew only the probes, not PL008's shapes, and planned no
// build for them.
func TestPidfileGuardOtherGOOS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint and analyzes a module for four GOOS")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := writeModule(t, pidfileModule)
	r := mustRun(t, exitFindings, dir, []string{"PIDLINT_CACHE=off"}, bin, "./...")
	want := []want{{"guard/guard_darwin.go", 10, "PL008"}, {"guard/guard_windows.go", 10, "PL008"}}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, want) {
		t.Errorf("pidlint ./...: %v, want %v\n%s", got, want, r.stderr)
	}
	if strings.Contains(r.stderr, "does not build") {
		t.Errorf("a build was skipped:\n%s", r.stderr)
	}
}
