import fcntl
import os


def validate(pid):
    os.kill(pid, 0)
