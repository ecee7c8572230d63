import asyncio
import fcntl
import json
import multiprocessing
import os
import signal
import subprocess
import sys

import psutil


def children(cmd, target):
    p = subprocess.Popen(cmd)
    os.kill(p.pid, signal.SIGTERM)
    m = multiprocessing.Process(target=target)
    m.start()
    os.kill(m.pid, signal.SIGINT)


async def child(cmd):
    proc = await asyncio.create_subprocess_exec(*cmd)
    proc.send_signal(signal.SIGTERM)


def forked():
    pid = os.fork()
    if pid:
        os.kill(pid, signal.SIGTERM)


def spawned(prog, args):
    pid = os.spawnvp(os.P_NOWAIT, prog, args)
    os.kill(pid, signal.SIGTERM)


def self_and_parent():
    os.kill(os.getpid(), signal.SIGINT)
    os.kill(os.getppid(), signal.SIGHUP)


class Arbiter:
    def __init__(self):
        self.workers = {}

    def spawn(self):
        pid = os.fork()
        self.workers[pid] = True

    def kill_worker(self, pid):
        if pid not in self.workers:
            return False
        os.kill(pid, signal.SIGTERM)


def create_time_checked(path):
    rec = json.load(open(path))
    p = psutil.Process(rec["pid"])
    if p.create_time() != rec["create_time"]:
        raise RuntimeError("stale")
    p.terminate()


def cmdline_checked(path, expected_argv):
    p = psutil.Process(int(open(path).read()))
    if p.cmdline() != expected_argv:
        return
    p.terminate()


def proc_cmdline_checked(path):
    pid = int(open(path).read())
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        if fh.read().split(b"\0")[0] != b"/usr/bin/mydaemon":
            return
    os.kill(pid, signal.SIGTERM)


def exe_checked(path):
    pid = int(open(path).read())
    if psutil.Process(pid).exe() != sys.executable:
        return
    os.kill(pid, signal.SIGTERM)


def lock_checked(lock):
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.kill(int(os.pread(fd, 32, 0)), signal.SIGTERM)


def probe_only(path):
    pid = int(open(path).read())
    return psutil.pid_exists(pid)


def group():
    os.kill(-1, signal.SIGTERM)


def getpcmd(pid):
    with open("/proc/{0}/cmdline".format(pid)) as fh:
        return fh.read().replace("\0", " ")


def luigi_shape(pidfile, my_cmd):
    with open(pidfile) as fh:
        pids = {int(line) for line in fh if line.strip()}
    for pid in pids:
        if getpcmd(pid) == my_cmd:
            os.kill(pid, signal.SIGTERM)
