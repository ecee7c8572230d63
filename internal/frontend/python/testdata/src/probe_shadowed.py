import sys

if not sys.platform == "win32":
    from os import kill
else:
    def kill(pid, sig):
        raise OSError(pid)


def alive(pid):
    try:
        kill(pid, 0)
    except OSError:
        return False
    return True
