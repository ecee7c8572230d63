"""Checks and PIDs that reach the rules through helpers of the file."""

import os
import signal
import sys

import psutil


def _probe(pid):
    # Called only under a POSIX test, and from a private helper no one
    # calls: Windows never runs it.
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def start(pid):
    if sys.platform != "win32":
        return _probe(pid)
    return False


def _debug_probe(pid):
    return _probe(pid)


def stop_worker(path):
    # A command-line check through a generator expression's target.
    with open(path) as f:
        pid = int(f.read())
    if any("worker" in part for part in psutil.Process(pid).cmdline()):
        os.kill(pid, signal.SIGTERM)


def _recorded_pids(directory):
    for name in os.listdir(directory):
        with open(os.path.join(directory, name)) as f:
            yield int(f.read())


def stop_all(directory):
    for pid in _recorded_pids(directory):
        os.kill(pid, signal.SIGTERM)  # want PY003 "read from a file"


def _is_ours(pid):
    # Verifies on Windows only.
    if os.name == "nt":
        return "svc" in " ".join(psutil.Process(pid).cmdline())
    return True


def stop_service(path):
    with open(path) as f:
        pid = int(f.read())
    if not _is_ours(pid):
        return
    if os.name != "nt":
        os.kill(pid, signal.SIGTERM)  # want PY003 "read from a file"


def _is_worker(pid):
    return "worker" in " ".join(psutil.Process(pid).cmdline())


def stop_checked(path):
    # The helper's check runs on every platform.
    with open(path) as f:
        pid = int(f.read())
    if _is_worker(pid):
        os.kill(pid, signal.SIGTERM)
