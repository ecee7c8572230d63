package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// scriptsTree is a directory of shell scripts and no go.mod: an init
// script found by its "#!" line, a .sh file, a bats test, a script that
// signals only its own child, a README that mentions kill and a Python
// program behind a "#!/bin/sh" trampoline.
var scriptsTree = map[string]string{
	"etc/init.d/appd": `#!/usr/bin/env bash
PIDFILE=/run/appd.pid

start() {
	[ -e "$PIDFILE" ] && { echo "already running"; exit 1; }
	/usr/sbin/appd &
	echo $! > "$PIDFILE"
}

stop() {
	kill -TERM "$(cat "$PIDFILE")"
}

case "$1" in
start) start ;;
stop) stop ;;
esac
`,
	"bin/status.sh": `read pid < /var/run/worker.pid
if kill -0 "$pid" 2>/dev/null; then
	echo running
fi
# pidlint:ignore SH002 the worker's PID file is written by a supervisor that holds it
kill -HUP $(< /var/run/worker.pid)
`,
	"test/stop.bats": `@test "stop" {
	kill "$(cat /tmp/t.pid)"
}
`,
	"bin/own.sh": `#!/bin/sh
sleep 60 &
child=$!
kill -0 "$child" && kill "$child"
`,
	"README":   "kill -0 $(cat app.pid) is what this tree checks\n",
	"bin/tool": "#!/bin/sh\n'''exec' python3 \"$0\" \"$@\"\n'''\nimport os\nos.kill(int(open('p.pid').read()), 15)\n",
}

// TestShellScripts runs the binary on a tree of shell scripts without a
// go.mod: findings in every file the walk takes as shell (exit 3), in
// the bats test unless -test=false, none for the own child or the ignored
// line; a file that does
// not parse is one error naming its line (exit 1) and the others are
// still checked; a tree with nothing to report exits 0.
func TestShellScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pidlint")
	}
	t.Parallel()
	bin := pidlintBin(t)
	dir := t.TempDir()
	for name, text := range scriptsTree {
		writeFile(t, filepath.Join(dir, name), text)
	}
	noGo := []string{"PATH=" + t.TempDir()} // no go command is needed

	r := mustRun(t, exitFindings, dir, noGo, bin, "./...")
	wantFindings := []want{
		{"bin/status.sh", 2, "SH001"},
		{"etc/init.d/appd", 5, "SH003"},
		{"etc/init.d/appd", 11, "SH002"},
		{"test/stop.bats", 2, "SH002"},
	}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantFindings) {
		t.Errorf("./...: %v, want %v\n%s", got, wantFindings, r.stderr)
	}
	for _, fix := range []string{`safeprobe stop "$PIDFILE"`, `exec safeprobe run -lock "$PIDFILE" -- /usr/sbin/appd`, "safeprobe status /var/run/worker.pid", "flock(1)"} {
		if !strings.Contains(r.stderr, fix) {
			t.Errorf("the messages do not name the fix %q:\n%s", fix, r.stderr)
		}
	}

	r = mustRun(t, exitFindings, dir, noGo, bin, "-test=false", "./...")
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantFindings[:3]) {
		t.Errorf("-test=false ./...: %v, want all but the bats test's", got)
	}

	writeFile(t, filepath.Join(dir, "bin", "broken.sh"), "#!/bin/sh\necho ok\nif [ -e x.pid ]; then\n\techo \"unclosed\nfi\n")
	r = mustRun(t, exitError, dir, noGo, bin, "./...")
	if n := strings.Count(r.stderr, "broken.sh"); n != 1 || !strings.Contains(r.stderr, "pidlint: bin/broken.sh:4: syntax error: ") {
		t.Errorf("a file that does not parse: want one error naming bin/broken.sh:4, got:\n%s", r.stderr)
	}
	if got := textFindings(t, dir, r.stderr); !slices.Equal(got, wantFindings) {
		t.Errorf("beside a file that does not parse: %v, want %v", got, wantFindings)
	}

	r = mustRun(t, exitClean, dir, noGo, bin, "./bin/own.sh")
	if r.stderr != "" || r.stdout != "" {
		t.Errorf("a script that signals its own child: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}
