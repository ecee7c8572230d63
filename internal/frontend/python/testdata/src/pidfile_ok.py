import fcntl
import os
import tempfile


def locked(path):
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.write(fd, str(os.getpid()).encode())


def atomic_pidfile(final):
    tmp = final + ".tmp"
    fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    os.replace(tmp, final)


def cache_file(path):
    with open(path, "x") as fh:
        fh.write("data")
