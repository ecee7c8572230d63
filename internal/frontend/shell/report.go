package shell

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/pidlint/pidlint/internal/rules"
	"github.com/pidlint/pidlint/internal/shellcmd"
)

// A report is a sink that stays: its rule, its message, and whether
// only -strict reports it (a PID whose process's name was compared).
type report struct {
	sink     *sink
	message  string
	rawProbe bool
}

// reports are the analysis's sinks that no check clears, in source
// order, each once. strict also keeps those cleared by a name comparison
// only.
func (a *facts) reports(strict bool) []report {
	var out []report
	seen := map[string]bool{}
	for _, s := range a.sinks {
		key := fmt.Sprint(s.rule, s.node.Pos().Offset())
		if seen[key] {
			continue
		}
		var r report
		switch s.rule {
		case ruleGuard:
			if !a.pidFileGuard(s) {
				continue
			}
			r = report{sink: s, message: a.guardMessage(s)}
		default:
			if a.locked(s) {
				continue
			}
			checked, byName := a.checked(s)
			if checked && (!byName || !strict) {
				continue
			}
			r = report{sink: s, message: a.pidMessage(s), rawProbe: checked}
			if checked {
				r.message += "; its process's name is compared before, which -strict reports: a name is not an identity"
			}
		}
		seen[key] = true
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(x, y report) int { return int(x.sink.node.Pos().Offset()) - int(y.sink.node.Pos().Offset()) })
	return out
}

// locked reports whether the sink's flow takes a flock(1) lock on a file
// the PID was read from: the lock tells whether its holder lives.
func (a *facts) locked(s *sink) bool {
	return slices.ContainsFunc(s.pid.files, func(o origin) bool { return a.locks[s.scope+"\x00"+o.key] })
}

// checked reports whether a comparison of the process's start time or
// name in the sink's flow clears it, and whether only names are compared.
func (a *facts) checked(s *sink) (checked, byName bool) {
	byName = true
	for _, c := range a.checks {
		if c.scope != s.scope {
			continue
		}
		same := s.pidVar != "" && c.pidVar == s.pidVar
		for _, k := range keys(s.pid) {
			same = same || slices.Contains(c.files, k)
		}
		if same {
			checked = true
			byName = byName && !c.start
		}
	}
	return checked, checked && byName
}

// pidFileGuard reports whether a file test in a guard is a PID file's
// that nothing else settles: the file is read as a PID, written from $$
// or $!, or named for a PID file; the branch does not probe, signal or
// remove it; no flock(1) lock is taken on it.
func (a *facts) pidFileGuard(s *sink) bool {
	key := fileKey(text(s.file))
	if a.lockedF[key] || a.settles(s.guard) {
		return false
	}
	if a.written[key] {
		return true
	}
	for _, other := range a.sinks {
		if other.rule != ruleGuard && slices.Contains(keys(other.pid), key) {
			return true
		}
	}
	return pidFileName(text(s.file))
}

// pidFileName reports whether a path says it is a PID file: *.pid, or a
// variable named PIDFILE, PID_FILE, pidfile, …
func pidFileName(path string) bool {
	if strings.HasSuffix(strings.Trim(path, `"'`), ".pid") {
		return true
	}
	p := strings.ToUpper(fileKey(path))
	return strings.Contains(p, "$") && (strings.Contains(p, "PIDFILE") || strings.Contains(p, "PID_FILE"))
}

// settlers are the commands by which a guard's branch checks the PID or
// clears the file rather than refusing on its existence alone.
var settlers = []string{"kill", "ps", "pkill", "pgrep", "rm", "unlink", "flock", "cat", "read", "start-stop-daemon", "pidofproc", "killproc", "status_of_proc", "safeprobe"}

// settles reports whether the guard's branch runs one of the settlers.
func (a *facts) settles(g *guard) bool {
	seen := map[string]bool{}
	var runs func(n syntax.Node) bool
	runs = func(n syntax.Node) bool {
		found := false
		syntax.Walk(n, func(n syntax.Node) bool {
			c, ok := n.(*syntax.CallExpr)
			if !ok || found || len(c.Args) == 0 {
				return !found
			}
			name, _ := constText(c.Args[0])
			name = shellcmd.Name(name)
			if fd, ok := a.funcs[name]; ok && !seen[name] {
				seen[name] = true
				found = runs(fd.Body)
			}
			found = found || slices.Contains(settlers, name)
			return !found
		})
		return found
	}
	return slices.ContainsFunc(g.branch, func(s *syntax.Stmt) bool { return runs(s) })
}

// signalName names a signal as messages do: SIGTERM, SIGKILL, signal 9.
func signalName(what string) string {
	w := strings.TrimPrefix(what, "-")
	switch {
	case w == "":
		return "SIGTERM"
	case strings.Trim(w, "0123456789") == "":
		return "signal " + w
	case w != what || strings.HasPrefix(w, "SIG"):
		return "SIG" + strings.TrimPrefix(strings.ToUpper(w), "SIG")
	}
	return what
}

// pidMessage is the message of an SH001 or SH002 finding.
func (a *facts) pidMessage(s *sink) string {
	from := fmt.Sprintf("a PID read from %s", s.pid.files[0].file)
	if len(s.pid.files) == 1 {
		from += fmt.Sprintf(" (line %d)", s.pid.files[0].line)
	} else {
		from = "a PID read from " + s.pid.fileNames()
	}
	file := s.pid.files[0].file
	if s.rule == ruleSignal {
		return fmt.Sprintf("%s: %s sends %s to %s, unverified: after a crash, a reboot or PID reuse that number names another process, and an empty or corrupt file makes it kill \"\" or kill -1; use safeprobe stop %s (it signals only the verified holder of the file's lock, started with %s), flock(1) on the file, or a service manager unit",
			s.rule, s.what, signalName(s.signal), from, file, a.runCommand(file))
	}
	flaw := "is true for a zombie and for a reused PID"
	switch {
	case strings.HasPrefix(s.what, "kill"):
		flaw = "has kill(2)'s flaws: EPERM reads as dead, a zombie and a reused PID as alive, an empty file as dead"
	case strings.HasPrefix(s.what, "ps"):
		flaw = "lists zombies, and whoever has a reused PID, as running"
	case strings.Contains(s.what, "/proc"):
		flaw = "is true for zombies, reused PIDs and (on Linux) thread IDs, and false at once where there is no /proc (macOS, the BSDs)"
	}
	fix := fmt.Sprintf("ask safeprobe status %s (it checks the lock's holder and its start time), take flock(1) on the file, or use a service manager unit", file)
	if s.guard != nil {
		fix = fmt.Sprintf("to start once, %s (a kernel lock that dies with its holder), flock(1) on the file, or a service manager unit", a.runCommand(file))
	}
	return fmt.Sprintf("%s: %s on %s %s; %s", s.rule, s.what, from, flaw, fix)
}

// guardMessage is the message of an SH003 finding.
func (a *facts) guardMessage(s *sink) string {
	file := text(s.file)
	return fmt.Sprintf("%s: %s refuses to start while the PID file exists: a crash, SIGKILL or reboot leaves it, and every start fails until it is removed by hand; use %s (a kernel lock that dies with its holder, so a stale file is taken over), flock(1) on the file, or a service manager unit",
		s.rule, s.what, a.runCommand(file))
}

// runCommand is the safeprobe command that starts the program holding the
// PID file's lock: exec safeprobe run -lock FILE -- CMD, CMD the program
// the script starts in the background and writes the PID of, if known.
func (a *facts) runCommand(file string) string {
	cmd := a.daemons[fileKey(file)]
	if cmd == "" {
		cmd = "CMD"
	}
	return fmt.Sprintf("exec safeprobe run -lock %s -- %s", file, cmd)
}

// category is the finding's diagnostic category.
func (r report) category() string {
	if r.rawProbe {
		return rules.RawProbe
	}
	return r.sink.rule
}
