import os


def running(pid):
    os.kill(pid, 0)
    return True
