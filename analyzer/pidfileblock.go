package analyzer

import (
	"fmt"
	"go/token"
	"path/filepath"

	"github.com/pidlint/pidlint/analyzer/internal/pidflow"
)

// PL008 pidfile-stale-block: a PID file used as the single-instance guard
// without a kernel lock, so that a file left by a crash blocks every start.

var pidfileBlockRule = Rule{
	ID:      "PL008",
	Name:    "pidfile-stale-block",
	Title:   "a PID file as the single-instance guard, without a kernel lock",
	Summary: "a PID file that refuses the start (`O_EXCL` create, `os.Stat` exists, PID probed alive) with no kernel lock: a crash leaves it and every restart fails",
	Text: `A PID file outlives its process: SIGKILL, a panic before the clean-up, a
power cut or a reboot leave it behind. A daemon that refuses to start while
the file exists - created with O_CREATE|O_EXCL and no stale-file recovery,
or os.Stat(pidfile) succeeding - then fails every start, and the service
stays down: systemd's Restart= gives up once StartLimitBurst starts have
failed within StartLimitIntervalSec and leaves the unit failed, and
launchd's KeepAlive respawns it in a throttled loop. Reading the
PID and refusing while kill(pid, 0), Signal(0), os.FindProcess or
safeprobe.Alive says it is alive (or recovering only when such a probe says
it is dead) blocks the same way after a reboot or PID reuse, when an
unrelated process has the number; this is so on every OS. The rule reports
those guards in a package that writes its own PID. Not reported: files also
locked with flock, fcntl or LockFileEx (gofrs/flock, lockedfile, safeprobe),
recovery that checks the holder's identity (start time, command line),
PID files written for other tools (systemd PIDFile=) and never read back as
a guard, and O_EXCL files that never hold the own PID. A kernel lock dies
with its holder: safeprobe.TryAcquire takes over a stale file by itself.`,
	Bad: `f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
if err != nil {
	return fmt.Errorf("already running: %w", err) // for ever, after a crash
}
fmt.Fprintf(f, "%d\n", os.Getpid())`,
	Good: `lock, err := safeprobe.TryAcquire(pidFile, nil)
if err != nil {
	return err // ErrLocked names the live holder; a stale file is taken over
}
defer lock.Release()`,
	OS:  "every OS",
	pkg: checkPidfileBlock,
}

const blockAdvice = "; use safeprobe.TryAcquire, whose kernel lock dies with its holder"

// staysDown is what a supervisor does with a start that always fails.
const staysDown = "the service stays down (systemd's Restart= gives up after StartLimitBurst failed starts and leaves the unit failed; launchd's KeepAlive respawns it in a throttled loop)"

// checkPidfileBlock reports PL008 in the package: each guard where its
// fix goes (the create, the Stat, the probe that decides staleness).
func checkPidfileBlock(r *runner, rule string) {
	for _, g := range r.pidFlow().Guards() {
		var msg string
		switch g.Kind {
		case pidflow.ExclusiveNoRecovery:
			msg = "PID file created with O_EXCL and no stale-file recovery: a file left by a crash (SIGKILL, power loss) fails every later start, and " + staysDown
		case pidflow.ExclusiveBlindRecovery:
			msg = fmt.Sprintf("the PID file created with O_EXCL at %s is recovered only when this probe of the PID it names says dead: after a reboot or PID reuse an unrelated process has that number, every start fails, and %s",
				shortPos(r.pass.Fset, g.Create), staysDown)
		case pidflow.ExistenceGuard:
			msg = "start refused while the PID file exists: a file left by a crash (SIGKILL, power loss) fails every later start, and " + staysDown
		case pidflow.LivenessGuard:
			msg = fmt.Sprintf("start refused (at %s) while this probe says the PID read from the PID file is alive: after a crash and a reboot or PID reuse an unrelated process has that number, every start fails, and %s",
				shortPos(r.pass.Fset, g.Refusal), staysDown)
		}
		if fs := r.fileOf(g.Pos); fs != nil {
			r.add(fs, &finding{rule: rule, pos: g.Pos, end: g.End, msg: msg + blockAdvice})
		}
	}
}

// shortPos names a position as messages do: "pidfile.go:41".
func shortPos(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}
