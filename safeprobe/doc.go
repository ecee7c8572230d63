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
//     process, ERROR_ACCESS_DENIED that it exists; GetProcessId(h) must equal
//     the PID, because the kernel ignores a PID's two low bits. No signal is
//     ever sent. Identity: the creation time from GetProcessTimes.
//
// Every function that takes a PID rejects values outside 1..MaxPID with
// ErrInvalidPID before any system call: a corrupt PID file's 0 or -1 must
// never become kill(0, …) or kill(-1, …).
package safeprobe
