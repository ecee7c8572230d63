import json
import os
import signal
from pathlib import Path

import psutil


def stop(path):
    pid = int(open(path).read())
    os.kill(pid, signal.SIGTERM)  # want PY003 "read from a file (line 10)"


def stop_path(path):
    pid = int(Path(path).read_text().strip())
    os.killpg(pid, signal.SIGKILL)  # want PY003


def stop_with(path):
    with open(path) as fh:
        pid = int(fh.readline())
    os.kill(pid, 9)  # want PY003


def stop_json(state):
    pid = json.load(open(state))["pid"]
    os.kill(pid, signal.SIGINT)  # want PY003 "JSON state"


def stop_env():
    pid = int(os.environ["APP_PID"])
    os.kill(pid, signal.SIGUSR1)  # want PY003 "the environment"


def read_pid(path):
    with open(path) as fh:
        return int(fh.read())


def get_status(path):
    data = json.load(open(path))
    return data.get("pid"), data.get("port")


def stop_helper(path):
    os.kill(read_pid(path), signal.SIGTERM)  # want PY003


def stop_tuple(path):
    pid, _ = get_status(path)
    os.kill(pid, signal.SIGKILL)  # want PY003


def stop_many(path):
    for pid in {int(line) for line in open(path) if line.strip()}:
        os.kill(pid, signal.SIGTERM)  # want PY003


def stop_probed(path):
    pid = int(Path("/tmp/app.pid").read_text())
    try:
        os.kill(pid, 0)  # want PY001
    except OSError:
        pass
    else:
        os.kill(pid, signal.SIGTERM)  # want PY003


def stop_psutil(path):
    p = psutil.Process(read_pid(path))
    if p.is_running():
        p.terminate()  # want PY003 "psutil.Process.terminate"


def stop_walrus(path):
    if (pid := read_pid(path)) > 0:
        psutil.Process(pid).send_signal(signal.SIGTERM)  # want PY003


def send(pid, sig):
    os.kill(pid, sig)  # want PY003


def stop_by_param(path):
    send(read_pid(path), signal.SIGTERM)


class Spawner:
    def start(self, cmd):
        import subprocess
        self.proc = subprocess.Popen(cmd)
        self.pid = self.proc.pid

    def load_state(self, state):
        self.pid = state["pid"]

    def stop(self):
        os.kill(self.pid, signal.SIGTERM)  # want PY003


class Node:
    def __init__(self, pidfile):
        self.pidfile = pidfile

    @property
    def pid(self):
        return read_pid(self.pidfile)

    def send(self, sig):
        os.kill(self.pid, sig)  # want PY003
