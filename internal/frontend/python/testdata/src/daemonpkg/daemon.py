import fcntl
import os

from daemonpkg import liveness


def lock(path):
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def already_running(pid):
    return liveness.running(pid)
