// Package safeprobe answers "is the process with PID N still running?"
// correctly on Linux, macOS, FreeBSD and Windows, names a process for ever
// (PID, start time and boot), and holds a crash-safe PID-file lock.
//
// It replaces the usual probes, each wrong somewhere:
//
//   - kill(pid, 0) and (*os.Process).Signal(syscall.Signal(0)) read another
//     user's process (EPERM) as dead, a zombie and a recycled PID as alive,
//     and on Linux a thread ID as a process. On Windows Signal(0) always
//     fails, so every process reads as dead.
//   - os.FindProcess never fails on Unix; on Windows it succeeds for an
//     exited process whose handle is open and for pid+1..pid+3.
//   - /proc/<pid> exists for zombies and thread IDs, is hidden by hidepid,
//     and is absent on macOS and, by default, on the BSDs.
//
// What each OS is asked:
//
//   - Linux: pidfd_open, which fails with ESRCH for a PID no process has and
//     with EINVAL for a thread that is not a process; the pidfd polls
//     readable once the process has exited (a zombie until reaped). Where
//     pidfds are missing, kill(pid, 0), where EPERM means the process
//     exists, and State and Tgid from /proc/<pid>/status. Identity: field 22
//     of /proc/<pid>/stat (start time in clock ticks since boot) and
//     /proc/sys/kernel/random/boot_id. The state letter there is the main
//     thread's: Z with other threads still running is a live process. A
//     /proc mounted from another PID namespace (a container without its
//     own) names other processes, so identities are then ErrUnsupported.
//   - macOS: kill(pid, 0) for existence, sysctl kern.proc.pid for the zombie
//     state (SZOMB) and start time, kern.bootsessionuuid for the boot.
//   - FreeBSD: as macOS, decoding kinfo_proc's ki_stat and ki_start, less
//     kern.boottime: the start counted from boot, as there is no boot ID.
//   - Windows: OpenProcess(SYNCHRONIZE|PROCESS_QUERY_LIMITED_INFORMATION) and
//     WaitForSingleObject(h, 0); ERROR_INVALID_PARAMETER means no such
//     process. ERROR_ACCESS_DENIED does not prove a process has the PID
//     (psutil issue 2359): with query access alone, an exit code other than
//     STILL_ACTIVE (259), or 259 with an exit time, means it has exited;
//     with no access at all, the process list (a Toolhelp snapshot)
//     decides. GetProcessId(h) must equal the PID, because the kernel
//     ignores a PID's two low bits. No signal is ever sent. Identity: the
//     creation time from GetProcessTimes.
//
// What the lock trusts on Windows: a lock file, takeover marker or LockDir
// directory whose owner SID is this process's user, its token's default
// owner, BUILTIN\Administrators or SYSTEM (as root is trusted on Unix);
// anything else is refused with ErrUnsafePath, by Inspect and SignalOwner
// too. A held file cannot be rewritten, removed or renamed by anyone but
// its holder: the holder writes through a handle that shares read access
// only. A lock file TryAcquire creates gets a protected DACL (its user,
// SYSTEM and Administrators; Everyone may read only if LockOptions.Mode
// says so), not its directory's inheritable ACEs. Wine gives every file
// the same owner and keeps only what Unix mode bits say of a DACL, so the
// refusals and the DACL are tested through the injected OS layer; the
// share modes are tested under Wine.
//
// Every function that takes a PID rejects values outside 1..MaxPID with
// ErrInvalidPID before any system call: a corrupt PID file's 0 or -1 must
// never become kill(0, …) or kill(-1, …).
package safeprobe
