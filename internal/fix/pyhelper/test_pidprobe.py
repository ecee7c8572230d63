"""Tests of pidprobe.py against real processes: python3 -m unittest."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pidprobe  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# A child that takes the lock on argv[1], says so, and sleeps.
HOLDER = """
import sys, time
sys.path.insert(0, %r)
import pidprobe
lock = pidprobe.PidLock(sys.argv[1]).acquire()
print("locked", flush=True)
time.sleep(60)
""" % HERE


def spawn(code, *args):
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True)


def reap(child):
    child.kill()
    child.wait()
    child.stdout.close()


class Probe(unittest.TestCase):
    def test_self_and_parent_alive(self):
        self.assertTrue(pidprobe.alive(os.getpid()))
        self.assertTrue(pidprobe.alive(os.getppid()))

    def test_group_and_everyone_numbers_are_not_processes(self):
        for pid in (0, -1, -os.getpid(), True, "1", 1 << 40):
            self.assertFalse(pidprobe.alive(pid), pid)
            self.assertIsNone(pidprobe.start_time(pid), pid)

    def test_reaped_child_is_dead(self):
        child = spawn("pass")
        reap(child)
        self.assertFalse(pidprobe.alive(child.pid))
        self.assertIsNone(pidprobe.start_time(child.pid))

    @unittest.skipUnless(sys.platform.startswith("linux"), "zombie state read from /proc")
    def test_zombie_is_dead(self):
        child = spawn("pass")
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                with open("/proc/%d/stat" % child.pid) as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        break
                time.sleep(0.01)
            else:
                self.fail("the child did not exit")
            self.assertFalse(pidprobe.alive(child.pid))
        finally:
            reap(child)

    @unittest.skipUnless(sys.platform.startswith("linux"), "thread IDs share the PID space on Linux")
    def test_thread_id_is_no_process(self):
        tid, stop = [], threading.Event()
        t = threading.Thread(target=lambda: (tid.append(threading.get_native_id()), stop.wait()))
        t.start()
        try:
            while not tid:
                time.sleep(0.01)
            self.assertNotEqual(tid[0], os.getpid())
            self.assertFalse(pidprobe.alive(tid[0]))
        finally:
            stop.set()
            t.join()

    def test_start_time_names_one_process(self):
        mine = pidprobe.start_time(os.getpid())
        if mine is None:
            self.skipTest("no start time source on " + sys.platform)
        self.assertEqual(mine, pidprobe.start_time(os.getpid()))
        child = spawn(HOLDER, os.path.join(tempfile.mkdtemp(), "x.pid"))
        try:
            self.assertNotEqual(pidprobe.start_time(child.pid), mine)
        finally:
            reap(child)


class Files(unittest.TestCase):
    """A temporary PID file and the lock holders a test starts."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "daemon.pid")
        self.children = []

    def tearDown(self):
        for c in self.children:
            reap(c)
        self.dir.cleanup()

    def holder(self):
        child = spawn(HOLDER, self.path)
        self.children.append(child)
        self.assertEqual(child.stdout.readline().strip(), "locked")
        return child


class Lock(Files):
    def test_record_names_the_holder(self):
        with pidprobe.PidLock(self.path):
            with open(self.path) as f:
                record = json.load(f)
            self.assertEqual(record["pid"], os.getpid())
            self.assertEqual(record["start"], pidprobe.start_time(os.getpid()))
        self.assertEqual(os.path.getsize(self.path), 0)

    def test_second_starter_is_refused(self):
        child = self.holder()
        with self.assertRaises(pidprobe.Locked) as cm:
            pidprobe.PidLock(self.path).acquire()
        self.assertEqual(cm.exception.record["pid"], child.pid)

    def test_file_left_by_a_killed_holder_is_taken_over(self):
        reap(self.holder())
        with pidprobe.PidLock(self.path):
            with open(self.path) as f:
                self.assertEqual(json.load(f)["pid"], os.getpid())

    @unittest.skipIf(sys.platform == "win32", "symbolic links")
    def test_symlink_is_not_followed(self):
        target = os.path.join(self.dir.name, "victim")
        with open(target, "w") as f:
            f.write("keep")
        os.symlink(target, self.path)
        with self.assertRaises(OSError):
            pidprobe.PidLock(self.path).acquire()
        with open(target) as f:
            self.assertEqual(f.read(), "keep")


class SignalOwner(Files):
    def test_signals_the_live_holder(self):
        child = self.holder()
        self.assertTrue(pidprobe.signal_owner(self.path, signal.SIGTERM))
        self.assertEqual(child.wait(10), 1 if sys.platform == "win32" else -signal.SIGTERM)

    def test_stale_record_of_a_live_process_is_left_alone(self):
        # The holder died; its record names a live process (this one).
        reap(self.holder())
        with open(self.path, "w") as f:
            json.dump({"pid": os.getpid(), "start": pidprobe.start_time(os.getpid())}, f)
        self.assertFalse(pidprobe.signal_owner(self.path, signal.SIGTERM))

    def test_held_record_of_another_process_is_refused(self):
        # A holder whose record names someone else (a reused number, a
        # forged file): the start time does not match the holder's claim.
        other = spawn(HOLDER, self.path + ".other")
        self.children.append(other)
        other.stdout.readline()
        self.holder()
        for pid, start in ((other.pid, "forged"), (-1, None), (0, None)):
            with open(self.path, "r+") as f:
                f.write(json.dumps({"pid": pid, "start": start}) + " " * 64)
            self.assertFalse(pidprobe.signal_owner(self.path, signal.SIGTERM), pid)
        self.assertIsNone(other.poll())

    @unittest.skipIf(sys.platform == "win32", "POSIX permissions")
    def test_file_others_may_write_is_not_believed(self):
        child = self.holder()
        os.chmod(self.path, 0o666)
        self.assertFalse(pidprobe.signal_owner(self.path, signal.SIGTERM))
        self.assertIsNone(child.poll())

    def test_missing_file(self):
        self.assertFalse(pidprobe.signal_owner(self.path, signal.SIGTERM))


if __name__ == "__main__":
    unittest.main()
