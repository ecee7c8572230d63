package analyzer

import (
	"fmt"
	"go/token"
	"path/filepath"

	"github.com/pidlint/pidlint/analyzer/internal/pidflow"
)

// PL008 pidfile-stale-block: a PID file used as the single-instance guard
// without a kernel lock, so that a file left by a crash blocks every start.

var pidfileBlockRule = checker{
	rule: "PL008",
	pkg:  checkPidfileBlock,
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
