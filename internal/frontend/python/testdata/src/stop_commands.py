"""Stop commands and helpers as daemons' command-line tools write them."""

import os
import signal
import sys
from os import kill
from signal import SIGTERM

import psutil


class Stopper:
    """A 'stop' subcommand: the PID comes from a PID-file object."""

    def __init__(self, pid_file):
        self._pid_file = pid_file

    def stop(self):
        pid = self._pid_file.read()
        kill(pid, SIGTERM)  # want PY003 "read from a file"


class Platform:
    # A probe picked by a test in the class body: Windows gets the other.
    if os.name == "posix":

        @staticmethod
        def running(pid):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return False
            return True

    else:

        @staticmethod
        def running(pid):
            return psutil.pid_exists(pid)


def stop_previous(path):
    """Ends the previous run's helper: on Windows after a command-line
    match, elsewhere after a probe that proves nothing."""
    with open(path) as f:
        pid = int(f.read().strip())
    if sys.platform == "win32":
        proc = psutil.Process(pid)
        if "helper" in " ".join(proc.cmdline()):
            proc.terminate()
        return
    try:
        os.kill(pid, 0)
    except OSError:
        return
    os.kill(pid, signal.SIGTERM)  # want PY003 "read from a file"


def cleanup_spawned(pidfiles):
    """A test's clean-up: processes it started wrote these files, but one
    that died early left a number someone else may have now."""
    for name in pidfiles:
        with open(name) as f:
            pid = int(f.read())
        try:
            psutil.Process(pid).kill()  # want PY003 "read from a file"
        except psutil.NoSuchProcess:
            pass


def wait_gone(pid):
    # Information only: no signal follows.
    while psutil.pid_exists(pid):
        pass
