import os
from pathlib import Path


def r1(pid):
    return os.path.exists(f"/proc/{pid}")  # want PY005


def r2(pid):
    return Path("/proc", str(pid)).is_dir()  # want PY005


def r3(pid):
    return os.path.isdir("/proc/%d" % pid)  # want PY005


def r4(pid):
    return os.access("/proc/{}".format(pid), os.F_OK)  # want PY005


def r5(pid):
    return (Path("/proc") / str(pid)).exists()  # want PY005


def r6(pid):
    path = "/proc/" + str(pid)
    return os.path.exists(path)  # want PY005


def ok(pid):
    os.path.exists("/proc/self/fd")
    os.path.exists(f"/proc/{os.getpid()}")
    os.path.exists(f"/proc/{pid}/cmdline")
    open(f"/proc/{pid}/stat").read()
