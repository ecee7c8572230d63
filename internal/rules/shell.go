package rules

// shellRules are the shell rules, which the shell front end
// (internal/frontend/shell) checks. A PID "from a PID file" is one the
// script reads from a file - $(cat f), `cat f`, $(< f), head or a filter
// of the file, read pid < f, pkill -F f - and carries through variables,
// loops, function arguments and function output; $! (a child the script
// started) and a file the same code wrote from $! are its own.
var shellRules = []Rule{
	{
		Language: Shell,
		ID:       "SH001",
		Category: Probe,
		Name:     "sh-pidfile-probe",
		Title:    "kill -0, ps -p or a /proc test on a PID read from a PID file",
		Summary:  "`kill -0`, `ps -p`/`ps PID` or `[ -d /proc/$pid ]` on a PID read from a file, with no identity check: zombies and recycled PIDs read as alive",
		Text: `A PID file names its process only while that process lives. kill -0 asks
kill(2) whether the caller may signal the number: EPERM (another user's
process) reads as dead, a zombie and a PID the kernel gave to another
process since the file was written read as alive, and an empty file makes
it kill -0 "", an error (status 1 in bash, 2 in dash) read as "not
running". ps -p PID and [ -d /proc/$pid ] (test -e, -x, [[ ]]) are true for
zombies and, on Linux, for thread IDs; there is no /proc on macOS and none
mounted by default on the BSDs, so the test says "gone" at once there. An
"already running" check built on them refuses to start after a crash once
the number is reused, and a wait loop waits on a stranger. The rule follows
the PID from where it is read - $(cat f), backticks, $(< f), head or sed of
the file, read pid < f, a while read loop fed by the file - through
variables, for loops, function arguments and function output. Not reported:
$! and jobs -p (children the script started, which cannot be reused before
it waits for them), a ps -f or -l listing printed for the user to read
(neither redirected nor captured), a file the same code wrote from $!
moments before, a
PID file the script holds a flock(1) lock on, and a PID whose start time
(ps -o lstart=, /proc/PID/stat) or name, command line or executable
(ps -o comm=/args=, /proc/PID/cmdline, readlink /proc/PID/exe) is compared
with the expected one; -strict reports the name comparisons, as a name is
not an identity. The message names the safeprobe command's replacement:
safeprobe status FILE to ask, exec safeprobe run -lock FILE -- CMD to start
once, or a kernel lock (flock(1)) or a service manager unit.`,
		Bad: `if kill -0 "$(cat /run/app.pid)" 2>/dev/null; then
	echo "already running"; exit 1
fi`,
		Good: `# the lock lives as long as the daemon; a crash frees it at once
exec safeprobe run -lock /run/app.pid -- /usr/sbin/app --foreground`,
		OS: "every OS (zombies, reused PIDs); Linux (thread IDs in /proc); macOS, the BSDs (no /proc)",
	},
	{
		Language: Shell,
		ID:       "SH002",
		Category: Signal,
		Name:     "sh-pidfile-signal",
		Title:    "a signal sent to a PID read from a PID file, unverified",
		Summary:  "`kill \"$(cat f)\"`, `kill $(< f)`, `read pid < f; kill $pid`, `pkill -F f` with no identity check: a stale file's PID names whoever has the number now",
		Text: `kill "$(cat app.pid)" signals whoever has that number now. After a crash,
a reboot or plain PID reuse, that is an unrelated process, and SIGTERM or
SIGKILL stops it; as root, any process. An empty file makes it kill "" (an
error), a corrupt one can make it kill -1, every process the caller may
signal. pkill -F reads the file itself and has the same hole. A kill -0 or
ps -p "check" before the signal does not help: it says the number is in
use, not by whom. The rule reports kill (also as $KILL or /bin/kill, and
inside $(...)) and pkill -F with a real signal, on a PID followed from the
file as SH001 follows it. Not reported: $!, jobs -p and %1 (the script's own
children), a PID file the script holds a flock(1) lock on, and a PID whose
start time or name, command line or executable is compared before the
signal (-strict reports the name comparisons). safeprobe stop FILE signals
only the process that holds the file's lock (started by safeprobe run -lock
FILE -- CMD) and whose start time and boot the record names, waits for it
to exit, and refuses an empty, corrupt or stale file; a service manager
unit (systemd's KillMode=, MAINPID) needs no PID file at all.`,
		Bad: `stop() {
	kill -TERM "$(cat /run/app.pid)"
}`,
		Good: `stop() {
	safeprobe stop -timeout 30s -kill /run/app.pid
}`,
		OS: "every OS",
	},
	{
		Language: Shell,
		ID:       "SH003",
		Category: PIDFile,
		Name:     "sh-pidfile-exists-guard",
		Title:    "a PID file's existence as the single-instance guard",
		Summary:  "`[ -e app.pid ] && exit` refuses to start while the file exists: a crash leaves it and every start fails",
		Text: `A PID file outlives its process: SIGKILL, a crash, a power cut or a reboot
leave it behind. A script that refuses to start while the file exists ([ -e
f ], [ -f f ], test -s f, [[ -e f ]], followed by exit or return, an if
whose branch does, or an if whose branch only says "already running" while
its else starts) then fails every start until someone removes the file by
hand; under a supervisor that restarts it, the service stays down. The rule
reports such a test on a file the script reads a PID from or writes $$ or
$! to, or whose name says it is a PID file (*.pid, $PIDFILE, $PID_FILE).
Not reported: a branch that goes on to probe or signal the file's PID (SH001
and SH002 report those), that removes the file, or that holds a flock(1)
lock on it. exec safeprobe run -lock FILE -- CMD takes a kernel lock that
dies with its holder, so a stale file is taken over at once, and records
the holder for safeprobe status and stop.`,
		Bad: `[ -e /run/app.pid ] && { echo "already running"; exit 1; }
echo $$ > /run/app.pid
exec /usr/sbin/app`,
		Good: `exec safeprobe run -lock /run/app.pid -- /usr/sbin/app`,
		OS:   "every OS",
	},
}
