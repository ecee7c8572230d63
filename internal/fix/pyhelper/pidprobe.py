"""pidprobe: whether a PID is alive, whether it is still the process a PID
file recorded, and a PID-file lock that a crash cannot leave stale.

Standard library only (ctypes on Windows, macOS and FreeBSD). Nothing here
signals a process it has not verified:

    alive(pid)                  live process (zombies, thread IDs, 0 and -1 are not);
                                never signals (os.kill(pid, 0) is Ctrl+C on Windows)
    start_time(pid)             an opaque token, equal only for the same process
    PidLock(path)               acquire() locks the file (flock / msvcrt.locking) and
                                records this process; raises Locked naming a live holder;
                                a file left by a crash is taken over
    signal_owner(path, sig)     signals the process holding the lock on path, only
                                while it holds it and its start time matches the record

Start times: /proc/PID/stat and the boot ID on Linux, sysctl kern.proc.pid
on macOS and FreeBSD, GetProcessTimes on Windows; elsewhere None, and
signal_owner refuses.
"""

import ctypes
import errno
import json
import os
import sys

__all__ = ["alive", "start_time", "PidLock", "Locked", "signal_owner"]

_WINDOWS = sys.platform == "win32"
if _WINDOWS:
    import msvcrt
else:
    import fcntl


def _valid(pid):
    # 0 and negative numbers name process groups or everyone to os.kill.
    return isinstance(pid, int) and not isinstance(pid, bool) and 0 < pid < 1 << 31


def alive(pid):
    """Reports whether pid names a live process. It never signals."""
    if not _valid(pid):
        return False
    if _WINDOWS:
        return _win_query(pid, times=False) is not None
    if sys.platform.startswith(("darwin", "freebsd")):
        info = _kinfo(pid)
        if info is not False:
            return info is not None and not info[1]
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: alive
    status = _linux_status(pid)
    return status is None or (status["State"][:1] not in "ZX" and status["Tgid"] == str(pid))


def start_time(pid):
    """An opaque token for the process pid names, equal only for the same
    process (boot included); None when it is gone or the OS has no source."""
    if not _valid(pid):
        return None
    if _WINDOWS:
        return _win_query(pid, times=True)
    if sys.platform.startswith("linux"):
        if not alive(pid):
            return None
        try:
            with open("/proc/%d/stat" % pid, "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            with open("/proc/sys/kernel/random/boot_id") as f:
                boot = f.read().strip()
        except OSError:
            return None
        return "linux:%s:%s" % (boot, fields[19].decode())
    info = _kinfo(pid)
    if not info:
        return None
    return "%s:%d.%06d" % (sys.platform, info[0][0], info[0][1])


def _linux_status(pid):
    """/proc/PID/status as a dict, or None without /proc."""
    try:
        with open("/proc/%d/status" % pid) as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:
        return None  # no /proc, or hidepid: the kill answer stands


def _kinfo(pid):
    """(start (sec, usec), zombie) from sysctl kern.proc.pid on macOS and
    FreeBSD; None for no process; False when the record cannot be read."""
    import struct

    darwin = sys.platform.startswith("darwin")
    # Offsets in struct kinfo_proc on 64-bit platforms (<sys/sysctl.h>, <sys/user.h>).
    size, pid_off, stat_off, start = (648, 40, 36, "<qi") if darwin else (1088, 72, 388, "<qq")
    start_off = 0 if darwin else 336
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        mib = (ctypes.c_int * 4)(1, 14, 1, pid)  # CTL_KERN, KERN_PROC, KERN_PROC_PID
        buf = ctypes.create_string_buffer(size)
        n = ctypes.c_size_t(size)
        if libc.sysctl(mib, 4, buf, ctypes.byref(n), None, ctypes.c_size_t(0)) != 0:
            return None if ctypes.get_errno() == errno.ESRCH else False
    except (OSError, AttributeError):
        return False
    b = buf.raw
    if n.value == 0:
        return None
    if n.value < size or (not darwin and struct.unpack_from("<i", b, 0)[0] != size):
        return False
    if struct.unpack_from("<i", b, pid_off)[0] != pid:
        return None  # a thread ID answered with its process's record
    return struct.unpack_from(start, b, start_off), b[stat_off] == 5  # SZOMB


def _win_query(pid, times):
    """Windows: None when pid names no live process; else True, or with
    times the creation time as a token."""
    from ctypes import wintypes

    k32 = ctypes.WinDLL("kernel32", use_last_error=True)
    k32.OpenProcess.restype = wintypes.HANDLE
    k32.OpenProcess.argtypes = (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
    k32.CloseHandle.argtypes = (wintypes.HANDLE,)
    k32.GetExitCodeProcess.argtypes = (wintypes.HANDLE, ctypes.POINTER(wintypes.DWORD))
    k32.WaitForSingleObject.argtypes = (wintypes.HANDLE, wintypes.DWORD)
    k32.GetProcessTimes.argtypes = (wintypes.HANDLE,) + (ctypes.POINTER(wintypes.FILETIME),) * 4
    access = 0x1000 | 0x00100000  # PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE
    h = k32.OpenProcess(access, False, pid)
    if not h:
        # Access denied: a protected or another user's process, alive, but
        # with no start time to compare.
        return (None if times else True) if ctypes.get_last_error() == 5 else None
    try:
        code = wintypes.DWORD()
        if not k32.GetExitCodeProcess(h, ctypes.byref(code)):
            return None
        # 259 (STILL_ACTIVE) may also be an exit code: the wait decides.
        if code.value != 259 or k32.WaitForSingleObject(h, 0) != 0x102:
            return None
        if not times:
            return True
        ft = [wintypes.FILETIME() for _ in range(4)]
        if not k32.GetProcessTimes(h, *[ctypes.byref(t) for t in ft]):
            return None
        return "windows:%d" % (ft[0].dwHighDateTime << 32 | ft[0].dwLowDateTime)
    finally:
        k32.CloseHandle(h)


class Locked(Exception):
    """The PID file is locked by a live process; record is its owner record."""

    def __init__(self, path, record):
        super().__init__("%s is locked by PID %s" % (path, record.get("pid", "?")))
        self.record = record


# Windows locks a byte range; the byte past any record keeps the record readable.
_LOCK_OFFSET = 1 << 20


def _open(path):
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    return os.open(path, flags | getattr(os, "O_BINARY", 0), 0o644)


def _trylock(fd):
    try:
        if _WINDOWS:
            os.lseek(fd, _LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError as e:
        if e.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK):
            return False
        raise


def _unlock(fd):
    if _WINDOWS:
        os.lseek(fd, _LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)


def _read_record(fd):
    os.lseek(fd, 0, os.SEEK_SET)
    data = os.read(fd, 4096)
    try:
        record = json.loads(data.decode())
        return record if isinstance(record, dict) else {}
    except ValueError:
        return {}


class PidLock:
    """A PID file held with a kernel lock: the kernel releases it when the
    holder dies, however it dies, so a stale file never blocks a start."""

    def __init__(self, path):
        self.path = path
        self._fd = None

    def acquire(self):
        fd = _open(self.path)
        try:
            if not _trylock(fd):
                raise Locked(self.path, _read_record(fd))
            me = os.getpid()
            record = json.dumps({"pid": me, "start": start_time(me)}).encode() + b"\n"
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, record)
            os.ftruncate(fd, len(record))
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def release(self):
        """Unlocks the file and empties the record (the file stays: removing
        it would let a second starter lock a new file while one waits)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)
            _unlock(fd)
        finally:
            os.close(fd)

    __enter__ = acquire

    def __exit__(self, *exc):
        self.release()


def signal_owner(path, sig):
    """Sends sig to the process that holds the lock on path, when it holds
    it and its start time is the one it recorded; returns whether it sent.
    A file no one holds (its owner is gone), or that another user owns or
    may write, is left alone."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return False
    try:
        st = os.fstat(fd)
        if not _WINDOWS and (st.st_uid not in (0, os.geteuid()) or st.st_mode & 0o022):
            return False  # another user could have written the record
        if _trylock(fd):
            _unlock(fd)
            return False  # no holder: the record is stale
        record = _read_record(fd)
        pid, start = record.get("pid"), record.get("start")
        if not _valid(pid) or pid == os.getpid() or start is None or start_time(pid) != start:
            return False
        os.kill(pid, sig)
        return True
    finally:
        os.close(fd)
