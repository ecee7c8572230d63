import os


def running(pid):
    # Imported only by the daemon module, which needs fcntl: never on Windows.
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True
