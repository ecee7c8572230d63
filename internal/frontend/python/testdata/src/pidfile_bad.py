import os

PIDFILE = "/run/app.pid"
FLAGS = os.O_CREAT | os.O_EXCL | os.O_WRONLY


def write_pid():
    fd = os.open(PIDFILE, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)  # want PY004 "no stale-file recovery"
    os.write(fd, b"%d\n" % os.getpid())


def write_pid_x(path):
    with open(path, "x") as fh:  # want PY004
        fh.write(f"{os.getpid()}\n")


class Pidfile:
    def __init__(self, path):
        self.path = path

    def acquire(self):
        try:
            fd = os.open(self.path, FLAGS)  # want PY004 "reuse-blind probe (line 33)"
        except FileExistsError:
            if self.remove_if_stale():
                return self.acquire()
            raise
        os.write(fd, str(os.getpid()).encode())

    def remove_if_stale(self):
        pid = int(open(self.path).read())
        try:
            os.kill(pid, 0)  # want PY001
        except ProcessLookupError:
            os.unlink(self.path)
            return True
        return False
