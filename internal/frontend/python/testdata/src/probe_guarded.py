import os
import platform
import sys

IS_WINDOWS = platform.system() == "Windows"


def a(pid):
    if sys.platform == "win32":
        return win_alive(pid)
    else:
        os.kill(pid, 0)


def b(pid):
    if os.name != "nt":
        os.kill(pid, 0)


def c(pid):
    if platform.system() == "Windows":
        return win_alive(pid)
    os.kill(pid, 0)


def d(pid):
    if sys.platform.startswith("win"):
        raise NotImplementedError
    os.kill(pid, 0)


if os.name == "posix":
    def alive(pid):
        os.kill(pid, 0)
        return True
else:
    def alive(pid):
        return win_alive(pid)


def _alive_posix(pid):
    os.kill(pid, 0)
    return True


def _alive_nt(pid):
    return bool(win_alive(pid))


check = _alive_nt if sys.platform == "win32" else _alive_posix


def e(pid):
    if not IS_WINDOWS:
        os.kill(pid, 0)


def _check(pid):
    os.kill(pid, 0)


def main():
    if sys.platform != "win32":
        _check(read_pid())


def f(pid):
    if sys.platform in ("linux", "darwin") and pid > 0:
        os.kill(pid, 0)


def g(pid):
    assert os.name == "posix"
    os.kill(pid, 0)


def h(pid):
    import fcntl
    os.kill(pid, 0)


def win_alive(pid):
    return True


def read_pid():
    return 1
