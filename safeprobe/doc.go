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
//     Identity: field 22 of /proc/<pid>/stat (start time in clock ticks since
//     boot), /proc/sys/kernel/random/boot_id, and, to tell apart two processes
//     started in the same 10 ms tick, the serial (the inode of the pidfd on
//     pidfs, Linux 6.9 and later: unique within the boot) and the PID
//     namespace (the inode of /proc/<pid>/ns/pid, readable for another user's
//     process only with ptrace access). Where both sides have a serial it
//     decides; otherwise identities compare the start time, and the namespace
//     when both have it: on older kernels, and for records written before
//     these fields, the start time, boot and (if recorded) namespace are all
//     there is, and a PID reused within one tick in one namespace goes
//     unnoticed. The start time is kept as the initial time namespace counts
//     it: /proc adds the reader's boottime offset (a time namespace, Linux
//     5.6), which the reader takes out (/proc/self/timens_offsets), so a
//     daemon started under `unshare --time --boottime N` and its supervisor
//     outside read one start. A poll of the pidfd after /proc is read proves
//     /proc showed that process and not a newcomer. The state letter there is
//     the main thread's: Z with other threads still running is a live process.
//     A /proc mounted from another PID namespace names other processes, so
//     identities of other processes are then ErrUnsupported; Self reads
//     /proc/self, which names this process in any /proc it is visible in (a
//     container sharing its host's /proc). An identity recorded in another PID
//     namespace than the reader's is not judged by the PID, which names
//     another process here or none: Identity.Probe says Unknown
//     (ErrOtherPIDNamespace), Inspect that the lock is held by a process in
//     another PID namespace (Status.OtherPIDNamespace), and SignalOwner
//     signals nothing. A record never lacks an identity without saying so:
//     where the OS gives none (ErrUnsupported), the record says why
//     (Record.NoIdentity); where reading it failed (EMFILE), TryAcquire fails,
//     having made nothing.
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
// has not been verified, as itself and as the lock's holder. On Unix the
// lock trusts only what this process's user or root owns:
//
//   - TryAcquire, Acquire, NewLockDir, RequestTakeover and SignalOwner (every
//     entry point that writes under a lock path or signals its holder, and all
//     through one function) first refuse an empty path, and a lock file path
//     whose form names a directory (fs.ErrInvalid), then walk the path from
//     the root as the kernel resolves it ("link/.." included), before making
//     anything (NewLockDir walks again what it made), following symbolic
//     links, and refuse (ErrUnsafePath, naming the directory or link and its
//     owner) a directory on the way that another user owns or that its group
//     or others may write without the sticky bit, and a symbolic link another
//     user owns: whoever may rename a directory above a held lock file can
//     move it away and let a second process take the lock. A sticky directory
//     root owns, such as /tmp, is fine. Every component checked is one only
//     this user or root can change, so opening by the path afterwards reaches
//     what was checked. In a user namespace, a directory whose owner is not
//     mapped reads as the overflow uid (65534) and is refused too.
//   - TryAcquire refuses a lock file another user owns, a symlink, a
//     directory, FIFO, socket or device, a file its group or others may
//     write, whose record anyone could have forged, and a file with more
//     than one link: it may be another file's second name, put there by
//     anyone who may write the directory, and where fs.protected_hardlinks
//     is 0 on Linux, or on macOS and the BSDs, which have no such guard,
//     that file may be anyone's, root's too. Such a link denies the lock
//     until it is removed, and the error says so. Each is refused whether
//     found at the check before opening or put in place between the check
//     and the open; so is a LockOptions.Mode with a group or others write
//     bit. A Mode without the owner's read and write (0400) is refused at
//     once (fs.ErrInvalid): once its holder died, no one but root could
//     open the file again, and an existing file so made ends Acquire at
//     once with a permission error that names its mode.
//   - A lock file TryAcquire creates is locked before anyone else can open
//     it, so that no one who may read it (a Mode of 0644) locks it first:
//     on Linux it is made unnamed (O_TMPFILE), locked and then linked at its
//     name, on macOS and the BSDs opened with O_EXLOCK. Where that cannot be
//     done (NFS; overlayfs before Linux 6.6) it is created by name and
//     locked at once, and one who may read it may lock it in between; the
//     holder then fails with ErrLocked and never shares the lock. After
//     locking, TryAcquire checks that the path still names the file it
//     locked. A lock file others may read, others may lock whenever it is
//     free (flock needs only read access), keeping it from its owner: the
//     default Mode, 0600, lets no one else open it.
//   - When the record cannot be written (a full disk), TryAcquire removes the
//     lock file, as Release does, and unlocks: nothing is left behind.
//     Program and host names are cut to 255 bytes, so every record fits the
//     4,096 bytes readers read.
//   - SignalOwner refuses a lock file another user owns or that its group or
//     others may write, and a record naming a process that runs as another
//     user than the file's owner, which could not have opened the file to lock
//     it and write the record (ErrUnsafePath). It signals only the process the
//     record's identity names (see SignalOwnerContext), and only if that
//     process holds the lock (ErrNotHeld otherwise): on Linux one of its own
//     descriptors must hold it, as /proc/<pid>/fdinfo lists the flocks held
//     through a descriptor, and the descriptor, stat'ed through
//     /proc/<pid>/fd, must name the lock file by its own device and inode (not
//     by the file system's device, which btrfs subvolumes share), in the
//     descriptor table of the process or, when its main thread has exited, of
//     its other threads; so a holder that exec'd after a child took over its
//     descriptor, or another user who may read the file and locked it, cannot
//     make the record's process a target. That costs what the holder has,
//     never what other users hold: the machine's table of locks (/proc/locks),
//     which another user may fill with hundreds of thousands of flocks, is
//     read only as Inspect reads it, and only when the record's process holds
//     nothing. Where the OS does not name holders (macOS, the BSDs, and
//     another user's process for a caller other than root) it refuses a lock
//     file that its group or others may read, who could hold it. The signal
//     goes through a pidfd that safeprobe opens before the checks (not
//     os.FindProcess's, which falls back to the PID when pidfd_open fails, for
//     good once its first call in the process did, and has none before Go
//     1.23); when none can be had (EMFILE), nothing is signalled. Only on
//     Linux kernels without pidfds, and on macOS and the BSDs, is it kill(2)
//     right after the checks. SignalOwnerContext ends with its context;
//     SignalOwner and SignalOwnerWith after SignalOwnerTimeout (5 s).
//   - NewLockDir refuses a directory another user owns or its group or
//     anyone may write to without the sticky bit, then keeps it open and
//     opens, checks and removes lock files relative to it, never following
//     a symlink: a directory or symlink put at its path afterwards is not
//     used. Close lets it go once the Locks taken through it are released.
//   - TakeoverRequested ignores a takeover marker whose owner is not the
//     lock file's, so another user cannot make holders leave.
//     RequestTakeover moves aside whatever another user put at the marker's
//     name, and the marker's remover moves it to a name no one can make in
//     advance. Root may move another user's file in a sticky directory; a
//     user who is not root may not, and there a marker name made in advance
//     still blocks that user's requests, as a lock file name made in advance
//     blocks the lock itself.
//   - Inspect reports what a lock file says, whoever wrote it: Status.Record
//     is a claim, and its path is not walked. Whether the lock is held it asks
//     without taking a lock where it can, so that it cannot make a TryAcquire
//     fail: on Linux, first of the process the record names, through its own
//     descriptors as SignalOwner asks (a shared flock counts), then of
//     /proc/locks, which can only say that the lock is free (no line with the
//     file's device and inode numbers, which another user's file on a btrfs
//     subvolume may share) and is read only up to 64 KiB (some 1,100 locks:
//     the kernel walks the table from its start for each page, so a table
//     another user filled would take a minute to read whole). Otherwise
//     (another file with the same numbers, a larger table, macOS and the BSDs,
//     a PID namespace whose /proc/locks may omit holders) it takes the
//     exclusive lock on its own open file for a moment and drops it. A shared
//     flock counts as held, as it stops TryAcquire.
//
// On Windows the owner is a SID, and the lock trusts a lock file, takeover
// marker or directory only if its owner is this process's user, its
// token's default owner, BUILTIN\Administrators, SYSTEM or TrustedInstaller
// (as root is trusted on Unix), and its DACL grants no other principal a
// right that lets it change the object: for a file, to write, delete or
// rename it or change its DACL or owner; for a directory, to remove or
// rename what it holds (FILE_DELETE_CHILD), itself (DELETE, except on a
// volume's root, which cannot be) or its DACL or owner, while adding
// entries is allowed, as C:\ allows Authenticated Users. Only allow ACEs are
// read: a deny ACE is not weighed, so a DACL may be refused that Windows
// would not let write, never the other way round. ACEs that only pass down
// to children do not count; a NULL DACL lets everyone do everything.
//
//   - TryAcquire, Inspect and SignalOwner refuse a lock file with another
//     owner or such a DACL (ErrUnsafePath, naming the principal), as well
//     as a reparse point (symbolic link or junction, opened as itself), a
//     directory, a device or pipe, and a file with more than one link.
//     Unlike on Unix, Inspect refuses too: the owner is read on the handle
//     every lock file is opened through.
//   - TryAcquire, Acquire, NewLockDir, RequestTakeover and SignalOwner check
//     every directory from the volume's root down to the lock's, and
//     NewLockDir the directory itself, opening each as itself
//     (FILE_FLAG_OPEN_REPARSE_POINT): a junction or directory symbolic link is
//     judged as the reparse point it is, not by its target, and refused when
//     another principal owns it or may re-point it (write its data or
//     attributes, or delete it), as a symlink of another user's is on Unix.
//     Another user who may make a missing directory on the path (below C:\, or
//     in a ProgramData folder that lets Users add) could otherwise make it a
//     junction to a trusted directory A, let one process lock A\x.lock, re-
//     point it at B, and let a second lock B\x.lock. A trusted one is
//     followed, and the walk goes on from its target's own path. The walk ends
//     with the final path of the lock's directory (GetFinalPathNameByHandle),
//     and the lock file, opened by its whole path, must be in it
//     (ErrUnsafePath otherwise: something on the way changed between the walk
//     and the open). NewLockDir refuses a lock directory that is itself a
//     junction or symbolic link.
//   - TakeoverRequested ignores a takeover marker whose owner SID is not
//     the lock file's.
//   - A lock file TryAcquire creates gets a protected DACL (its user,
//     SYSTEM and Administrators; Everyone may read only if LockOptions.Mode
//     says so), not its directory's inheritable ACEs; so do the takeover
//     markers RequestTakeover writes and the directory NewLockDir makes,
//     which no one else may even read.
//   - A held file cannot be rewritten, removed or renamed by anyone but its
//     holder: the holder writes through a handle that shares read access
//     only, and closes it first when it releases. A reader that opened the
//     file as os.Open does (sharing read and write, not delete) stops no
//     one; Release then cannot remove the file, which the next TryAcquire
//     takes as it is. One that opened it without sharing write access keeps
//     the lock from everyone while it keeps the handle, as a flock does on
//     Unix: only a principal the DACL lets read can do that.
//   - SignalOwner does not compare the user the holder runs as with the
//     file's owner (that is in the holder's token, which another user's
//     process does not let a non-administrator open), and nothing names a
//     byte-range lock's holder: it believes a record only in a file no other
//     principal may open (ErrUnsafePath for a Mode with the others' read
//     bit), and signals only a running process with exactly the record's
//     PID, never an alias pid+1..pid+3, through the handle it opened before
//     the checks.
//   - Acquire's wait for a dead holder's late lock release (up to 2 s) ends
//     with its context.
//
// Wine gives every file the same owner and keeps only what Unix mode bits
// say of a DACL, so owners and DACLs (another user's file or directory,
// another principal's write, delete or delete-child right, a NULL DACL, an
// inherit-only ACE, a volume's root, the descriptors given to CreateFile
// and CreateDirectory) are tested through the injected OS layer
// (oslayer_windows.go); share modes, byte-range locks, the DACL Wine makes
// for a 0644 file, the stale-holder wait, final paths and real processes
// are tested under Wine. Wine 8 makes no junctions (FSCTL_SET_REPARSE_POINT
// fails with ERROR_NOT_SUPPORTED, and CreateSymbolicLink makes nothing), so
// a junction, its owner and its target are injected through the OS layer
// too; the test that makes a real one runs on Windows and skips under
// Wine, saying so.
//
// # Out of scope
//
// The lock is only as good as the file system's own locks, and two are
// not good enough to hold it, so nothing here claims to:
//
//   - NFS and other network file systems. Linux turns a flock on NFS into
//     a byte-range lock kept by the server, which the holder's kernel no
//     longer lists as a flock (/proc/locks and fdinfo do not show it), and
//     which a client loses when its lease lapses in a network partition or
//     the server restarts without reclaiming it: a second holder then
//     takes the lock while the first still believes it holds it. A
//     record's PID and identity name a process on whichever machine wrote
//     it, which a reader on another cannot probe. O_TMPFILE is refused,
//     so a new lock file is made by name, and one who may read it can
//     lock it first.
//   - overlayfs across layers. A lock file in a lower (image) layer is one
//     inode to a process that opens it read-only and another, its copy in
//     the upper layer, to one that opens it for writing: their flocks do
//     not meet, so Inspect (which opens read-only) may call a held lock
//     free, and two containers with their own upper layers over one lower
//     layer hold two locks on "one" file. Keep lock files in a directory
//     made in the upper layer, or on a volume or bind mount (one file
//     system): there the lock is the kernel's as anywhere.
//
// Inspect and SignalOwner say nothing for such a file that the kernel
// does not: where a flock may be kept elsewhere (NFS, SMB, CIFS, Ceph,
// FUSE, 9p, AFS, Coda, OCFS2, GFS2), /proc/locks is not asked, and only
// the probe (taking the lock) is.
//
// # The command
//
// cmd/safeprobe is this package as a command, for shell scripts and other
// languages: safeprobe alive PID, safeprobe run -lock FILE -- CMD (CMD
// exec'd holding the lock, with Lock.Exec; on Windows a parent holding it),
// safeprobe status FILE (LSB exit codes) and safeprobe stop FILE (the
// verified holder only). It is built from this module alone; the package
// itself does not import it.
//
// # Go version
//
// safeprobe is a module of its own, github.com/pidlint/pidlint/safeprobe,
// at go 1.21 with golang.org/x/sys v0.22.0: the oldest Go and the lowest
// x/sys it (tests included; v0.21.0 lacks windows.ACL.AceCount) builds,
// vets and is tested with, for every OS it answers for. Requiring it, or a
// copy written by pidlint -vendor-safeprobe, leaves a module's go line as
// it was: pidlint's own module, whose go line follows golang.org/x/tools,
// does not come with it. So safeprobe uses nothing newer than Go 1.21:
// no range over an int or a function, no iterators, no math/rand/v2, and
// no loop that relies on the per-iteration loop variables of Go 1.22.
//
// # Files
//
// A file's name says on which OSes it is built: the part after its last
// underscore (before _test) names one set of OSes, the same set in every
// file, and a name without one builds everywhere. A concern has a portable
// file and one file per OS set, each defining the same unexported
// functions for its OSes: probe(pid) is in probe_linux.go, probe_sysctl.go,
// probe_windows.go, probe_killonly.go and probe_other.go. The go command
// selects the files of its own suffixes by name; every other suffix is
// exactly the //go:build line given here. Each entry is the suffix with its
// constraint, the ports it builds for, and the files (tests aside) that
// use it; a test holds every file, tests too, to this table.
//
//	_linux        by name
//	              android linux
//	              identity lock lockholder locksignal locktable oslayer probe procfs timens
//	_darwin       by name
//	              darwin ios
//	              identity kinfo
//	_freebsd      by name
//	              freebsd
//	              identity kinfo
//	_windows      by name
//	              windows
//	              identity lock lockancestors lockowner lockowneraction oslayer probe
//	_plan9        by name
//	              plan9
//	              esrch
//	_nonplan9     !plan9
//	              all but plan9
//	              esrch
//	_nonlinux     !linux
//	              all but android linux
//	              identity locksignal
//	_unix         unix
//	              aix android darwin dragonfly freebsd illumos ios linux netbsd openbsd solaris
//	              probe
//	_sysctl       darwin || freebsd
//	              darwin freebsd ios
//	              identity kinfo oslayer probe
//	_flock        darwin || dragonfly || freebsd || linux || netbsd || openbsd
//	              android darwin dragonfly freebsd ios linux netbsd openbsd
//	              lock lockancestors lockexec lockio lockopen
//	_bsd          darwin || dragonfly || freebsd || netbsd || openbsd
//	              darwin dragonfly freebsd ios netbsd openbsd
//	              lock
//	_locks        darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows
//	              android darwin dragonfly freebsd ios linux netbsd openbsd windows
//	              (tests only)
//	_nolocks      !darwin && !dragonfly && !freebsd && !linux && !netbsd && !openbsd && !windows
//	              aix illumos js plan9 solaris wasip1
//	              lock
//	_noproctable  !darwin && !freebsd && !linux && !windows
//	              aix dragonfly illumos js netbsd openbsd plan9 solaris wasip1
//	              identity
//	_killonly     unix && !darwin && !freebsd && !linux
//	              aix dragonfly illumos netbsd openbsd solaris
//	              probe
//	_other        !unix && !windows
//	              js plan9 wasip1
//	              probe
//
// What the OSes of a set share:
//
//   - _unix: kill(2), and os.Process signals by PID or pidfd; _nonlinux:
//     no pidfds; _nonplan9: syscall.ESRCH.
//   - _sysctl: the process table, read through sysctl kern.proc.pid
//     (kinfo_proc).
//   - _flock: the lock is flock(2); _bsd: the flock OSes that do not say
//     which process holds a flock (Linux does, in /proc).
//   - _locks: a file lock (flock, or LockFileEx on Windows); _nolocks: none,
//     so a lock cannot be taken or read there (ErrUnsupported).
//   - _noproctable: no process table safeprobe reads, so no identity;
//     _killonly: the Unix ones among them, probed by kill(2) alone;
//     _other: neither Unix nor Windows, with no probe at all.
package safeprobe
