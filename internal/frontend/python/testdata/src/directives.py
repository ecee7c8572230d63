import os


def a(pid):
    os.kill(pid, 0)  # pidlint:ignore PY001 a POSIX-only tool


def b(pid):
    # pidlint:ignore py-kill-zero-windows the caller checks the platform
    os.kill(pid, 0)


def c(pid):
    return pid  # pidlint:ignore PY005 nothing here  # want unused


def d(pid):
    os.kill(pid, 0)  # pidlint:ignore PY001  # want PY001  # want bad-ignore
