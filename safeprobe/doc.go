// Package safeprobe answers "is the process with PID N still running?"
// correctly on Linux, macOS, FreeBSD and Windows, names a process for ever
// (PID, start time and boot, and on Linux its pidfs serial and PID
// namespace), and holds a crash-safe PID-file lock.
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
//     with ENOENT (EINVAL on older kernels) for a thread that is not a
//     process; the pidfd polls readable once the process has exited (a
//     zombie until reaped). Where pidfds are missing (ENOSYS, or EPERM from
//     a seccomp filter), kill(pid, 0), where EPERM means the process
//     exists, and State and Tgid from /proc/<pid>/status; with a /proc of
//     another PID namespace (a container without its own), tgkill(pid,
//     pid, 0) tells a thread from a process and a zombie reads as running.
//     Any other error (EMFILE when the fd table is full, say) is Unknown
//     with that error, never a guess; nothing that failed is cached.
//     Identity: field 22 of /proc/<pid>/stat (start time in clock ticks
//     since boot), /proc/sys/kernel/random/boot_id, and, to tell apart two
//     processes started in the same 10 ms tick, the serial (the inode of
//     the pidfd on pidfs, Linux 6.9 and later: unique within the boot) and
//     the PID namespace (the inode of /proc/<pid>/ns/pid, readable for
//     another user's process only with ptrace access). Identities compare
//     the serial and the namespace when both sides have them; on older
//     kernels, and for records written before these fields, the start
//     time, boot and (if recorded) namespace are all there is, and a PID
//     reused within one tick in one namespace goes unnoticed. A poll of the
//     pidfd after /proc is read proves /proc showed that process and not
//     a newcomer. The state letter there is the main thread's: Z with
//     other threads still running is a live process. A /proc mounted from
//     another PID namespace names other processes, so identities are then
//     ErrUnsupported.
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
// Every function that takes a PID rejects values outside 1..MaxPID with
// ErrInvalidPID before any system call: a corrupt PID file's 0 or -1 must
// never become kill(0, …) or kill(-1, …).
//
// # What the lock trusts
//
// Another local user is an attacker: a file, directory or marker that user
// could have written is never believed, and no process is signalled that
// has not been verified. On Unix the lock trusts only what this process's
// user or root owns:
//
//   - TryAcquire refuses a lock file another user owns, a symlink, a
//     directory, FIFO, socket or device, a file with more than one link, and
//     a file its group or others may write, whose record anyone could have
//     forged (ErrUnsafePath), whether found at the check before opening or
//     put in place between the check and the open; so does a LockOptions.Mode
//     with a group or others write bit.
//   - SignalOwner refuses a lock file another user owns or that its group
//     or others may write, and a record naming
//     a process that runs as another user than the file's owner, which could
//     not have opened the file to lock it and write the record
//     (ErrUnsafePath); it then signals only the process the record's
//     identity names (see SignalOwnerWith).
//   - NewLockDir refuses a directory another user owns or its group or
//     anyone may write to without the sticky bit, then keeps it open and opens, checks and
//     removes lock files relative to it, never following a symlink: a
//     directory or symlink put at its path afterwards is not used.
//   - TakeoverRequested ignores a takeover marker whose owner is not the
//     lock file's, so another user cannot make holders leave.
//   - Inspect reports what a lock file says, whoever wrote it: Status.Record
//     is a claim. Whether the lock is held it asks without taking a lock
//     where the OS lists holders (Linux: /proc/locks), so it cannot make a
//     TryAcquire fail.
//
// On Windows the owner is a SID, and the lock trusts a lock file, takeover
// marker or LockDir directory only if its owner is this process's user,
// its token's default owner, BUILTIN\Administrators or SYSTEM (as root is
// trusted on Unix):
//
//   - TryAcquire, Inspect and SignalOwner refuse a lock file with another
//     owner (ErrUnsafePath), as well as a reparse point (symbolic link or
//     junction, opened as itself), a directory, a device or pipe, and a file
//     with more than one link. Unlike on Unix, Inspect refuses too: the
//     owner is read on the handle every lock file is opened through.
//   - NewLockDir refuses a directory with another owner, who may change its
//     ACL and so remove or plant lock files; lock files are then opened by
//     their whole path.
//   - TakeoverRequested ignores a takeover marker whose owner SID is not
//     the lock file's.
//   - A held file cannot be rewritten, removed or renamed by anyone but its
//     holder: the holder writes through a handle that shares read access
//     only, and closes it first when it releases. A lock file TryAcquire
//     creates gets a protected DACL (its user, SYSTEM and Administrators;
//     Everyone may read only if LockOptions.Mode says so), not its
//     directory's inheritable ACEs.
//   - SignalOwner does not compare the user the holder runs as with the
//     file's owner (that is in the holder's token, which another user's
//     process does not let a non-administrator open); it signals only a
//     running process with exactly the record's PID, never an alias
//     pid+1..pid+3.
//
// Wine gives every file the same owner and keeps only what Unix mode bits
// say of a DACL, so the owner refusals and the DACL are tested through the
// injected OS layer; the share modes are tested under Wine.
package safeprobe
