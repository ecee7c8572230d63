package rules

// pythonRules are the Python rules, which the Python front end
// (internal/frontend/python) checks. Their fixes call pidprobe.py, the
// standard-library module pidlint -vendor-python-helper writes.
var pythonRules = []Rule{
	{
		Language: Python,
		ID:       "PY001",
		Category: Probe,
		Name:     "py-kill-zero-windows",
		Title:    "os.kill(pid, 0) as a liveness probe in code that runs on Windows",
		Summary:  "`os.kill(pid, 0)` reachable on Windows, where CPython sends CTRL_C_EVENT to the console instead of probing",
		Text: `On Windows, CPython's os.kill(pid, sig) with sig 0 (signal.CTRL_C_EVENT)
or 1 (CTRL_BREAK_EVENT) calls GenerateConsoleCtrlEvent: it sends Ctrl+C to
every process attached to the caller's console, the caller included, so the
"probe" interrupts the program that asks (on builds without console support
it terminates the process instead). A PID that is not a console process
group fails with OSError [WinError 87] (or 11), never ProcessLookupError, so
"except (ProcessLookupError, PermissionError)" lets it escape and the
program crashes on a stale PID file. Neither is a liveness answer
(bpo-14484). On Unix kill(pid, 0) reads zombies and recycled PIDs as alive,
but that alone is not this rule. The rule reports os.kill with a signal
that is 0 (0, signal.SIG_DFL, a constant bound to 0), through os, an alias
or "from os import kill", unless Windows cannot reach it: an enclosing
if/elif/else or conditional on sys.platform, os.name, platform.system() or
a variable set from one (IS_WINDOWS, platformType), an earlier return or
raise under a Windows test, a function defined under such a test or chosen
by one (alive = _nt if WIN else _posix), a function whose every caller in
the file is so guarded, a kill name bound only off Windows, a file that
imports a POSIX-only module (fcntl, pwd, grp, termios, resource, pty, tty,
python-daemon) at its top or through a module of its package it imports,
and a module that its package imports only under a POSIX test.`,
		Bad: `def daemon_alive(pid):
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # WinError 87 escapes
        return False
    return True`,
		Good: `import pidprobe  # pidlint -vendor-python-helper DIR writes it

def daemon_alive(pid):
    return pidprobe.alive(pid)  # OpenProcess + WaitForSingleObject on Windows`,
		OS: "windows",
	},
	{
		Language: Python,
		ID:       "PY002",
		Category: Signal,
		Name:     "py-kill-oserror-windows",
		Title:    "os.kill whose except clause misses Windows' OSError for a gone PID",
		Summary:  "`os.kill(pid, SIGTERM)` in code that runs on Windows, guarded by `except ProcessLookupError` (or `PermissionError`) alone",
		Text: `On Windows os.kill(pid, sig) opens the process and calls TerminateProcess.
For a PID that no longer exists OpenProcess fails with
ERROR_INVALID_PARAMETER and CPython raises OSError [WinError 87] (errno
EINVAL), not ProcessLookupError; an access error is PermissionError only
for ERROR_ACCESS_DENIED. A try whose handlers catch ProcessLookupError or
PermissionError but not OSError (or Exception) therefore crashes on a stale
PID on Windows, in the very path that cleans up after a dead process. The
rule reports os.kill with a signal Windows has (SIGTERM, SIGINT, SIGABRT,
SIGBREAK, CTRL_BREAK_EVENT or a number) inside such a try, where Windows
can reach it (the guards PY001 lists). Signal 0 is PY001's.`,
		Bad: `try:
    os.kill(pid, signal.SIGTERM)
except ProcessLookupError:  # Windows raises OSError [WinError 87]
    pass`,
		Good: `try:
    os.kill(pid, signal.SIGTERM)
except OSError:  # ProcessLookupError on Unix, WinError 87 on Windows
    pass`,
		OS: "windows",
	},
	{
		Language: Python,
		ID:       "PY003",
		Category: Signal,
		Name:     "py-signal-unverified-pid",
		Title:    "a signal sent to a PID read from a file, JSON state or the environment, unverified",
		Summary:  "`os.kill`/`os.killpg`/psutil `terminate`/`kill`/`send_signal` on a PID read from storage with no identity check",
		Text: `A PID file, a JSON state file or an environment variable names a process
only while that process lives. After a crash, a reboot or PID reuse the
number belongs to someone else, and SIGTERM or SIGKILL sent to it stops an
unrelated process (on Windows os.kill terminates it); a file holding 0 or
-1 makes os.kill signal the caller's process group or every process it may
signal. The rule follows the PID within a file - through int(), str(),
.strip(), .read(), .readline(), .read_text(), json.load(...)["pid"],
.get("pid"), os.environ and os.getenv, variables, with and for targets,
tuple unpacking, walrus, self attributes set in any method of the class,
properties and helper functions that return it - to os.kill and os.killpg
with a signal other than 0, and to terminate(), kill() and send_signal() of
a psutil.Process made from it. Not reported: a process whose
create_time() is compared with a recorded value, a PID file whose fcntl.flock
or msvcrt.locking lock is tested in the same function, a PID checked for
membership in a table of own children, and PIDs of the program's own
children (subprocess.Popen(...).pid, multiprocessing, asyncio
subprocesses, os.fork, os.spawn*), its own and its parent's. A comparison
of the process's name, exe or cmdline with the expected program counts as
a check by default, as it stops the usual accident; -strict reports it all
the same, as a name is not an identity. os.kill(pid, 0),
psutil.pid_exists, psutil.Process(pid).is_running() on a Process made from
the file's PID (it compares the PID's current owner with itself), /proc/PID
existence and reading the name without comparing it are no check.`,
		Bad: `pid = int(open(PIDFILE).read())
os.kill(pid, signal.SIGTERM)  # whoever has the number now`,
		Good: `import pidprobe  # pidlint -vendor-python-helper DIR writes it

# The daemon holds pidprobe.PidLock(PIDFILE); stop signals the holder
# only while it holds the lock and its start time matches the record.
pidprobe.signal_owner(PIDFILE, signal.SIGTERM)`,
		OS: "every OS",
	},
	{
		Language: Python,
		ID:       "PY004",
		Category: PIDFile,
		Name:     "py-pidfile-stale-block",
		Title:    "an exclusive-create PID file with no stale-file recovery, or a reuse-blind one",
		Summary:  "`os.open` with `O_CREAT` and `O_EXCL`, or `open(path, \"x\")` on a PID or lock file with no recovery, or recovery decided by `os.kill(pid, 0)`, `psutil.pid_exists` or `/proc/PID`",
		Text: `A PID file outlives its process: SIGKILL, a crash before the clean-up, a
power cut or a reboot leave it behind. A program that creates it with
O_CREAT|O_EXCL (or open(path, "x")) and refuses to start when it exists
fails every start after that, and a service manager gives up (systemd's
StartLimitBurst) or respawns it in a loop (launchd's KeepAlive). Recovering
only when os.kill(pid, 0), psutil.pid_exists or /proc/PID says the old
holder is dead blocks the same way once an unrelated process has the
number, as after a reboot. The rule reports such a create of a path that
names a PID or lock file (its text or the variable, attribute or function
it comes from says pid or lock) unless its class, or else its file, checks
the holder's identity (a compared create_time, cmdline, exe or name) or
locks the file with fcntl.flock, fcntl.lockf or msvcrt.locking. Temporary
files renamed into place are not reported. A kernel lock dies with its
holder: pidprobe.PidLock takes over a stale file by itself.`,
		Bad: `fd = os.open(PIDFILE, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
os.write(fd, b"%d\n" % os.getpid())  # after a crash: never again`,
		Good: `import pidprobe  # pidlint -vendor-python-helper DIR writes it

lock = pidprobe.PidLock(PIDFILE)
lock.acquire()  # raises pidprobe.Locked naming a live holder; a stale file is taken over`,
		OS: "every OS",
	},
	{
		Language: Python,
		ID:       "PY005",
		Category: Probe,
		Name:     "py-proc-exists",
		Title:    "/proc/<pid> existence used as a liveness test",
		Summary:  "`os.path.exists(f\"/proc/{pid}\")`, `Path(\"/proc\", str(pid)).is_dir()` and the like as the verdict",
		Text: `There is no /proc on macOS or Windows, and the BSDs do not mount it by
default: there every process reads as dead. On Linux /proc/<pid> exists for
zombies (exited, not reaped) and for thread IDs, which read as alive, and
hidepid=2 hides other users' processes. The rule reports os.path.exists,
isdir, lexists, os.access, os.stat and pathlib's exists() and is_dir() of
a path that is /proc/ and a PID ("/proc/%d" % pid, f"/proc/{pid}",
"/proc/{}".format(pid), "/proc/" + str(pid), os.path.join("/proc", ...),
Path("/proc") / str(pid)). Reading files under /proc/<pid> to compare them,
and /proc/self, are not reported.`,
		Bad: `def running(pid):
    return os.path.exists(f"/proc/{pid}")`,
		Good: `import pidprobe  # pidlint -vendor-python-helper DIR writes it

def running(pid):
    return pidprobe.alive(pid)  # zombies are dead; works on macOS and Windows`,
		OS: "linux (zombies, threads); darwin, the BSDs and windows (no /proc)",
	},
}
