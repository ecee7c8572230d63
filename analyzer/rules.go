package analyzer

import (
	"fmt"
	"strings"
)

// A Rule is one pidlint check: its ID is what diagnostics, -disable and
// //pidlint:ignore name; its text is what -explain and docs/rules.md print.
type Rule struct {
	ID    string
	Name  string
	Title string
	Text  string // why it is wrong, on which OS
	Bad   string // code the rule reports
	Good  string // what to write instead
}

// RawProbe is the diagnostic category of -strict findings: raw probes that
// are correct where they stand but bypass safeprobe.
const RawProbe = "raw-probe"

// Rules lists every rule, in ID order.
var Rules = []Rule{
	{
		ID:    "PL001",
		Name:  "kill-zero",
		Title: "kill(pid, 0) used as a liveness test",
		Text: `kill(2) with signal 0 sends nothing and reports whether the caller may
signal the PID. Its error is not a liveness verdict: EPERM means the process
exists but belongs to another user, yet "err != nil" reads it as dead. A
zombie (exited, not reaped) and a recycled PID both read as alive. On Linux
a thread ID reads as alive too. The rule reports syscall.Kill, unix.Kill and
syscall.Syscall(SYS_KILL, …) with a constant signal 0 whose error decides
liveness without telling EPERM from ESRCH, compares err.Error() text, or
inverts the test. Code that handles EPERM (errors.Is(err, syscall.EPERM),
os.IsPermission, or a func(error) bool of its own such as isPerm(err)) or
counts only ESRCH as dead is not reported. A process group (kill(-pgid, 0))
is reported without a fix: safeprobe answers for one process.`,
		Bad: `func running(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}`,
		Good: `func running(pid int) bool {
	return safeprobe.Alive(pid)
}`,
	},
	{
		ID:    "PL002",
		Name:  "signal-zero",
		Title: "Process.Signal(0) used as a liveness test",
		Text: `(*os.Process).Signal(syscall.Signal(0)) has kill(pid, 0)'s problems on
Unix (EPERM reads as dead, zombies as alive). On Windows it always fails with
"not supported by windows", so every process reads as dead: the rule reports
it in every file that builds for windows, however the error is handled,
unless a runtime.GOOS test (in place, or through a local variable such as
isWindows := runtime.GOOS == "windows") keeps it off Windows. Receivers
other than *os.Process are not this rule.`,
		Bad: `p, _ := os.FindProcess(pid)
if err := p.Signal(syscall.Signal(0)); err != nil {
	return false // dead?
}`,
		Good: `p, _ := os.FindProcess(pid)
if err := safeprobe.CheckProcess(p); err != nil {
	return false // exited, a zombie, or never existed
}`,
	},
	{
		ID:    "PL003",
		Name:  "findprocess-liveness",
		Title: "os.FindProcess used as a liveness test",
		Text: `os.FindProcess never fails on Unix: it returns a *Process for any PID, so
"err == nil" or "p != nil" says every PID is alive. (On Windows it does fail
for a PID that does not exist, but succeeds for an exited process whose
handle is still open and for pid+1..pid+3.) The rule reports a FindProcess
whose error or result is the verdict in code that builds for a non-Windows
OS, unless the process it returns is then signalled, killed or waited for.`,
		Bad: `func exists(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}`,
		Good: `func exists(pid int) bool {
	return safeprobe.Alive(pid)
}`,
	},
	{
		ID:    "PL004",
		Name:  "proc-stat",
		Title: "/proc/<pid> existence used as a liveness test",
		Text: `There is no /proc on macOS or Windows, and FreeBSD and the other BSDs do not
mount it by default: there every process reads as dead. On Linux
/proc/<pid> exists for zombies and for thread IDs, and hidepid=2 hides other
users' processes. The rule reports os.Stat, os.Lstat, os.Open, os.ReadDir and
Stat/Lstat/Access syscalls of a path built from a PID ("/proc/"+pid,
fmt.Sprintf("/proc/%d", pid), filepath.Join("/proc", …)) whose error is the
verdict. Reading /proc/<pid> for information is not reported: files under
it, the FileInfo os.Stat returns or the Stat_t a syscall fills when the code
reads them, and /proc/<own PID>, which tells whether /proc is mounted.`,
		Bad: `_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
return err == nil`,
		Good: `return safeprobe.Alive(pid)`,
	},
	{
		ID:    "PL005",
		Name:  "shell-probe",
		Title: "a shell command used as a liveness test",
		Text: `exec.Command running "kill -0", "ps -p", "pgrep", "pkill -0", "lsof -p" or
"tasklist /FI "PID eq N"" costs a process per probe and inherits its flaws:
kill -0 has kill(2)'s EPERM problem, ps and pgrep list zombies, and none of
them exist on every OS (tasklist only on Windows, the others not there).
The rule reports such a command when it is run, also through "sh -c"; pgrep
and lsof only when their exit status is the verdict, and not pgrep -P, which
lists children.`,
		Bad: `err := exec.Command("kill", "-0", strconv.Itoa(pid)).Run()
return err == nil`,
		Good: `return safeprobe.Alive(pid)`,
	},
	{
		ID:    "PL006",
		Name:  "wrapper",
		Title: "a kill or Signal wrapper called with signal 0",
		Text: `A function whose parameter becomes the signal of a kill or Signal call is a
probe when called with the constant 0, with the flaws of PL001 and PL002.
The rule follows such wrappers through analysis facts, across packages, and
reports at the call site whose error decides liveness. A function that
returns kill(pid, 0)'s raw error is followed the same way.`,
		Bad: `func signal(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

func running(pid int) bool { return signal(pid, 0) == nil }`,
		Good: `func running(pid int) bool { return safeprobe.Alive(pid) }`,
	},
	signalStaleRule,
	pidfileBlockRule,
}

// LookupRule returns the rule with the given ID or name.
func LookupRule(idOrName string) (Rule, bool) {
	for _, r := range Rules {
		if strings.EqualFold(r.ID, idOrName) || r.Name == idOrName {
			return r, true
		}
	}
	return Rule{}, false
}

// Explain is the text of -explain and of a rule's section in docs/rules.md.
func (r Rule) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n\n%s\n\nReported:\n\n%s\n\nInstead:\n\n%s\n",
		r.ID, r.Name, r.Title, r.Text, indent(r.Bad), indent(r.Good))
	return b.String()
}

func indent(code string) string {
	return "\t" + strings.ReplaceAll(code, "\n", "\n\t")
}
