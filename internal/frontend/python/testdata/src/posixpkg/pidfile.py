import os

from posixpkg import util


def validate(pid):
    os.kill(pid, 0)
