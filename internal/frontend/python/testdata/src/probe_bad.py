import errno
import os
import signal
import sys
from pathlib import Path

NULL_SIGNAL = 0


def daemon_alive(pidfile):
    pid = int(Path(pidfile).read_text())
    try:
        os.kill(pid, 0)  # want PY001
    except OSError:
        return False
    return True


def is_up(pid):
    try:
        os.kill(pid, 0)  # want PY001 "except at line 23"
        return True
    except (ProcessLookupError, PermissionError):
        return False


def ping(pid):
    os.kill(pid, NULL_SIGNAL)  # want PY001


def ping_dfl(pid):
    os.kill(pid, signal.SIG_DFL)  # want PY001


def stop(pid):
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError as e:
        if e.errno != errno.ESRCH and sys.platform != "win32":
            raise
    while True:
        try:
            os.kill(pid, 0)  # want PY001
        except OSError:
            break


def terminate(pid):
    try:
        os.kill(pid, signal.SIGTERM)  # want PY002
    except ProcessLookupError:
        pass


def hangup(pid):
    try:
        os.kill(pid, signal.SIGHUP)  # SIGHUP: not on Windows, an AttributeError first
    except ProcessLookupError:
        pass


def terminate_any(pid):
    try:
        os.kill(pid, signal.SIGTERM)
    except (ProcessLookupError, OSError):
        pass
