package rules

// goRules are the Go rules, which package analyzer checks: each has a
// checker there, in a file of its own.
var goRules = []Rule{
	{
		Language: Go,
		ID:       "PL001",
		Category: Probe,
		Name:     "kill-zero",
		Title:    "kill(pid, 0) used as a liveness test",
		Summary:  "`syscall.Kill`/`unix.Kill`/`Syscall(SYS_KILL…)` with signal 0 whose error decides liveness without telling EPERM from ESRCH",
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
is reported without a fix: safeprobe answers for one process. Comparing
err.Error() with "no such process" instead of errors.Is(err, syscall.ESRCH)
is reported wherever it is; a probe decided by such a text, or by EPERM's
("operation not permitted"), tells the two apart, and its message says only
that the text is fragile.`,
		Bad: `func running(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}`,
		Good: `func running(pid int) bool {
	return safeprobe.Alive(pid)
}`,
		OS:  "Unix",
		Fix: true,
	},
	{
		Language: Go,
		ID:       "PL002",
		Category: Probe,
		Name:     "signal-zero",
		Title:    "Process.Signal(0) used as a liveness test",
		Summary:  "`(*os.Process).Signal(0)` as above, and always in code that builds for Windows",
		Text: `(*os.Process).Signal(syscall.Signal(0)) has kill(pid, 0)'s problems on
Unix (EPERM reads as dead, zombies as alive). A reused PID reads as alive
too, with a difference: since Go 1.23, on Linux 5.3 and later, a Process
from os.FindProcess or StartProcess holds a pidfd, so its Signal cannot
reach a process that took the PID after it was found; a PID reused before
FindProcess still reads as alive. kill(2) (PL001) and a Process without a
pidfd (a go line before 1.23, whose toolchain may predate pidfds; kernels
before 5.3; other OSes) reach whoever has the number now. The message says
which applies from the file's go line (its //go:build goN or its
module's). On Windows it always fails with
"not supported by windows", so every process reads as dead: the rule reports
it in every file that builds for windows, however the error is handled,
unless a runtime.GOOS test (in place, or through a local variable such as
isWindows := runtime.GOOS == "windows") keeps it off Windows. A package
that cannot build for windows (a file the windows build would include
calls syscall.Kill or imports golang.org/x/sys/unix; an x_unix.go name is
no build constraint) gets the Unix message only.
Process.Signal(nil) (or os.Signal(nil)) fails on every OS, so it is
reported wherever its error is used. Process.Signal never returns ESRCH:
os turns it into os.ErrProcessDone on every Unix (os/exec_unix.go,
os/pidfd_linux.go), so !errors.Is(err, syscall.ESRCH), err != syscall.ESRCH
or a case syscall.ESRCH after Signal never sees a dead process, and after
Signal(0) reads it as alive: reported on the ESRCH, which the fix replaces
with os.ErrProcessDone. Not reported where the error is also compared with
os.ErrProcessDone, or where Signal(0)'s error is returned as it is (the
caller sees os.ErrProcessDone): the ESRCH test is then dead code, not a
wrong answer. On a child the program started itself (an
exec.Cmd's Process, os.StartProcess's, or a variable or field set only from
them), Signal(0) succeeds until the child is waited for, exited or not: the
finding points at Wait (a goroutine that waits and records the exit) and,
where the go line is 1.26 or later, at the handle the Process holds
(Process.WithHandle), and offers no PID probe as a fix. Comparing err.Error() with
"os: process already finished" instead of errors.Is(err, os.ErrProcessDone)
is reported too, and with "no such process" after Process.Signal or Kill,
which never matches. Receivers other than *os.Process are not this rule.
The fix probes through safeprobe.CheckProcess(p); when p comes from an
os.FindProcess(pid) just before, used for nothing else, it asks about the
PID instead (safeprobe.Alive(pid) for "== nil", safeprobe.Check(pid) for
the error) and deletes the FindProcess, with an "if err != nil { return
false }" after it when Alive replaces the probe, and imports left unused.`,
		Bad: `p, _ := os.FindProcess(pid)
if err := p.Signal(syscall.Signal(0)); err != nil {
	return false // dead?
}`,
		Good: `if err := safeprobe.Check(pid); err != nil {
	return false // exited, a zombie, or never existed
}`,
		OS:  "windows (always), Unix",
		Fix: true,
	},
	{
		Language: Go,
		ID:       "PL003",
		Category: Probe,
		Name:     "findprocess-liveness",
		Title:    "os.FindProcess used as a liveness test",
		Summary:  "`os.FindProcess`'s error or result as the verdict (it never fails on Unix; on Windows it misreads ACCESS_DENIED and open handles); FindProcess in a poll loop without `Release`",
		Text: `os.FindProcess never fails on Unix: it returns a *Process for any PID, so
"err == nil" or "p != nil" says every PID is alive. On Windows it opens the
process with PROCESS_QUERY_INFORMATION (os/exec_windows.go): a live elevated
or other user's process refuses with ACCESS_DENIED and reads as dead, and an
exited process whose handle some process still holds opens and reads as
alive, as does pid+1..pid+3 of a live pid (the kernel ignores a PID's two
low bits). The rule reports a FindProcess whose error or result is the
verdict on every OS, unless the process it returns is then signalled,
killed or waited for, or the code goes on to probe the PID for real (kill
or Signal with 0, safeprobe, or a function of the package, given the PID,
that does). safeprobe.Alive and Check wait on the process handle
on Windows, compare its PID with the one asked for, and settle
ACCESS_DENIED from the exit code or the process list. The fix asks
safeprobe about the PID: "_, err := os.FindProcess(pid)" and "return
err == nil" on the next line (or "p, _ := …" and "p != nil") become
"return safeprobe.Alive(pid)"; an error used otherwise comes from
safeprobe.Check(pid).
It also reports os.FindProcess in a loop, or in a function called from a
loop in the package, whose Process is neither released, waited for, stored
nor handed on: on Windows FindProcess opens a process handle, and since Go
1.23 on Linux (5.3 and later) it opens a pidfd; either stays open until
Release or until the garbage collector runs the Process's cleanup, so a
poller runs out of file descriptors (hashicorp/go-plugin#378,
hashicorp/nomad#27847). The Linux half is reported where the file's go
line (its //go:build goN or its module's) is 1.23 or later.`,
		Bad: `func exists(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}`,
		Good: `func exists(pid int) bool {
	return safeprobe.Alive(pid)
}`,
		OS:  "every OS; the loop leak: linux (go line 1.23+), windows",
		Fix: true,
	},
	{
		Language: Go,
		ID:       "PL004",
		Category: Probe,
		Name:     "proc-stat",
		Title:    "/proc/<pid> existence used as a liveness test",
		Summary:  "existence of `/proc/<pid>` as the verdict",
		Text: `There is no /proc on macOS or Windows, and FreeBSD and the other BSDs do not
mount it by default: there every process reads as dead (solaris, illumos,
aix and plan9 have /proc/<pid>, and messages do not name them). On Linux
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
		OS:   "linux (zombies, threads); the BSDs, darwin and windows (no /proc)",
		Fix:  true,
	},
	{
		Language: Go,
		ID:       "PL005",
		Category: Probe,
		Name:     "shell-probe",
		Title:    "a shell command used as a liveness test",
		Summary:  "`kill -0`, `ps -p`, `pgrep`, `pkill -0`, `lsof -p`, `tasklist /FI \"PID eq N\"` run through `os/exec`",
		Text: `exec.Command running "kill -0", "ps -p", "pgrep", "pkill -0", "lsof -p" or
"tasklist /FI "PID eq N"" costs a process per probe and inherits its flaws:
kill -0 has kill(2)'s EPERM problem, ps and pgrep list zombies, and each
exists only on some OSes (tasklist only on Windows, the others only on Unix).
The rule reports such a command when it is run, also through "sh -c"; pgrep
and lsof only when their exit status is the verdict, and not pgrep -P, which
lists children.`,
		Bad: `err := exec.Command("kill", "-0", strconv.Itoa(pid)).Run()
return err == nil`,
		Good: `return safeprobe.Alive(pid)`,
		OS:   "all",
	},
	{
		Language: Go,
		ID:       "PL006",
		Category: Probe,
		Name:     "wrapper",
		Title:    "a kill or Signal wrapper called with signal 0",
		Summary:  "a function that passes its parameter to kill/Signal, called with signal 0 (followed across packages through facts)",
		Text: `A function whose parameter becomes the signal of a kill or Signal call is a
probe when called with the constant 0, with the flaws of PL001 and PL002.
The rule follows such wrappers through analysis facts, across packages, and
reports at the call site whose error decides liveness. A function that
returns kill(pid, 0)'s raw error is followed the same way.`,
		Bad: `func signal(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

func running(pid int) bool { return signal(pid, 0) == nil }`,
		Good: `func running(pid int) bool { return safeprobe.Alive(pid) }`,
		OS:   "Unix; windows for a Signal wrapper",
		Fix:  true,
	},
	{
		Language: Go,
		ID:       "PL007",
		Category: Signal,
		Name:     "signal-unverified-pid",
		Title:    "a signal sent to a PID read from storage, unverified",
		Summary:  "a real signal (`syscall.Kill`, `Process.Signal`/`Kill`, `kill`/`pkill -F`/`taskkill` run by `exec.Command`) sent to a PID read from a PID or state file, with no check that it still names the process that wrote it",
		Text: `A PID file, a JSON state file or any record on disk names a process only
while that process lives. After a crash, a reboot or plain PID reuse the
number belongs to someone else, and SIGTERM or SIGKILL sent to it stops an
unrelated process (on Windows, Process.Kill terminates it). A file holding 0
or -1 is worse: kill(0, sig) signals the caller's own process group and
kill(-1, sig) every process it may signal; through os.FindProcess any other
negative number signals a whole process group. Nor is "pid > 0" enough:
syscall.Kill and unix.Kill take an int but kill(2) a 32-bit pid_t, so a PID
parsed with strconv.Atoi or ParseInt(s, 10, 64) and no upper bound lets
4294967295 through, and the kernel reads it as -1; safeprobe.ParsePID and
ValidatePID refuse anything outside 1..2147483647. The rule follows the PID
on the package's SSA form from where it is read - os.ReadFile, os.Open
with bufio, io or fmt.Fscan, JSON, YAML, TOML or gob decoding into struct
fields, maps and slices, a database row's Scan, an environment variable
named for a PID - through variables, copies, conversions, struct fields,
closures, channels, method values and helpers (across packages, by
analysis facts), to syscall.Kill, unix.Kill, Process.Signal or
Process.Kill with a signal other than 0, gopsutil's Terminate, Kill and
SendSignal, TerminateProcess, and the commands that signal a PID:
exec.Command("kill", "-9", pid) and pkill -F pidfile on Unix, taskkill
/PID pid on Windows. The message names where the PID was read. Not
reported: a PID whose process's start time is compared with a recorded one
(/proc/PID/stat, gopsutil's CreateTime, GetProcessTimes, safeprobe.Lookup
and Identity.Probe), or whose PID file's kernel lock is tested where it is
read (flock, fcntl, LockFileEx, safeprobe.Inspect's Held); PIDs of children
the code started; its own PID; PIDs the kernel lists now (/proc scans,
cgroup.procs). A comparison of the process's name, executable or command
line with the expected program also counts, as it stops the usual accident;
-strict reports it all the same, as a name is not an identity. Reading
/proc/PID/comm without comparing it, os.FindProcess, Signal(0), ps -p and a
lock on another file are no check. A PID read from a safeprobe lock file is
fixed to safeprobe.SignalOwner, which signals only the verified holder.`,
		Bad: `data, err := os.ReadFile(pidFile)
if err != nil {
	return err
}
pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
if err != nil {
	return err
}
return syscall.Kill(pid, syscall.SIGTERM) // whoever has the number now`,
		Good: `// The daemon holds lock, err := safeprobe.TryAcquire(pidFile, nil);
// stop signals the holder only once its identity is checked.
return safeprobe.SignalOwner(pidFile, syscall.SIGTERM)`,
		OS:  "every OS",
		Fix: true,
	},
	{
		Language: Go,
		ID:       "PL008",
		Category: PIDFile,
		Name:     "pidfile-stale-block",
		Title:    "a PID file as the single-instance guard, without a kernel lock",
		Summary:  "a PID file that refuses the start (`O_EXCL` create, `os.Stat` exists, PID probed alive) with no kernel lock: a crash leaves it and every restart fails",
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
		OS: "every OS",
	},
}
