package main

// Each verb's help: its usage line first, then what it does, its flags,
// its exit codes and one example (a line starting "  $ ", which the
// overall help collects).

const aliveHelp = `safeprobe alive [-json] PID

Reports whether the process with this PID is running. Unlike kill -0, a
process of another user (EPERM) is running, and a zombie (exited, not yet
reaped), a Linux thread ID and, on Windows, the aliases PID+1..PID+3 are
not. PID is one decimal number in 1..2147483647: 0, -1 and 4294967295,
which kill(2) would read as "my process group" or "every process", are
refused before any system call.

  -json   print the state and the process's identity (start time, boot,
          pidfs serial, PID namespace) as one JSON object

Exit status: 0 running, 1 not running (no such process, or a zombie),
2 error (a PID no process can have, a bad command line, or a state the OS
would not reveal).

Example:
  $ safeprobe alive "$(head -n1 /run/app.pid)" && echo up
`

const runHelp = `safeprobe run -lock FILE [-wait DURATION | -nowait] -- CMD [ARG...]

Takes the PID lock FILE, writes the owner record (the first line is the
PID, as systemd's PIDFile= and scripts read it; the second names the
holder for ever: start time, boot, host, program), and runs CMD holding
the lock, so that the lock lives exactly as long as CMD:

  Unix     safeprobe execs CMD in its own place: same PID, the locked
           descriptor inherited (its number in SAFEPROBE_LOCK_FD), the
           record naming CMD's program. A crash or SIGKILL of CMD frees
           the lock at once; nothing is left to clean up. CMD must not
           fork into the background, and a child CMD starts keeps the
           lock unless CMD closes that descriptor in it.
  Windows  safeprobe stays as the parent holding the lock: CMD runs as its
           child in a process group of its own, is ended with it (a job
           object), gets Ctrl+C and Ctrl+Break forwarded as Ctrl+Break,
           and its exit code is safeprobe's.

The lock is refused, not waited for, when FILE is a directory, FIFO,
symlink, device or hard link, another user's file, or below a directory
another user may change.

  -lock FILE       the lock file (created mode 0600 if missing)
  -nowait          fail at once if another process holds the lock (the
                   default), naming the holder
  -wait DURATION   wait up to DURATION (e.g. 30s) for the lock

Exit status: CMD's; 2 bad command line; 75 the lock is held by another
process (at once, or when -wait ran out); 125 safeprobe failed (an
unsafe lock path, say); 126 CMD cannot be run; 127 CMD not found.

Example:
  $ exec safeprobe run -lock /run/app.pid -- /usr/sbin/app --foreground
`

const statusHelp = `safeprobe status [-json] FILE

Reports who holds the PID lock FILE (PID, program, host, start time) or
that it is free, and checks the record against the OS: the holder must
still be the process the record names, not a recycled PID. Exit codes are
the LSB init script status codes. A lock path below a directory another
user may change, or a file another user owns, is refused (status
unknown): its record is that user's claim.

  -json   print the status as one JSON object

Exit status: 0 running (the lock is held by the process its record
names), 1 not running but the lock file is left (the holder died or
released without removing it), 3 not running (no lock file), 4 unknown
(an unsafe or unreadable lock path, a corrupt record while held, or a
lock held by a process other than its record's), 2 bad command line.

Example:
  $ safeprobe status /run/app.pid || echo "not running ($?)"
`

const stopHelp = `safeprobe stop [-signal TERM] [-timeout 10s] [-kill] [-json] FILE

Stops the process holding the PID lock FILE: it signals only the holder
it verified (the record's process, by start time and boot, which holds
the lock through its own descriptor, and runs as the file's owner),
through a handle opened before checking, then waits for the lock to be
released. It never signals a PID it could not verify: a stale file, a
recycled PID, a corrupt record or a bare PID line is refused, not
signalled. With -kill, a holder still holding after -timeout gets SIGKILL
(on Windows TerminateProcess), verified again.

On Windows the signal is a console Ctrl+Break to the command that
safeprobe run started (its own process group, on the holder's console); a
holder that is not safeprobe run, or has no console, is refused, or with
-kill terminated at once. -signal KILL terminates the holder
(TerminateProcess), which ends that command too. Once the holder has
released the lock, stop removes the file it left.

  -signal SIG        the first signal: a name (TERM, SIGHUP, INT...) or a
                     number; on Windows TERM, INT or BREAK (a console
                     Ctrl+Break, the default) or KILL
  -timeout DURATION  how long to wait for the release (default 10s)
  -kill              SIGKILL the holder if it still holds after -timeout
  -json              print the outcome as one JSON object

Exit status: 0 stopped (the holder released the lock), 1 not running (no
lock file, or no one holds the lock), 3 the holder still holds the lock
after -timeout (and after SIGKILL with -kill), 4 refused or failed (an
unsafe path, a corrupt or unverifiable record, a holder that is not the
record's process), 2 bad command line.

Example:
  $ safeprobe stop -timeout 30s -kill /run/app.pid
`
