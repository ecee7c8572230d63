package signalstale

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"

	"github.com/pidlint/pidlint/safeprobe"
)

// A child this code started and has not waited for.
func goodChild(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Signal(syscall.SIGTERM)
}

// os.StartProcess's process.
func goodStartProcess(argv []string) error {
	p, err := os.StartProcess(argv[0], argv, &os.ProcAttr{})
	if err != nil {
		return err
	}
	return p.Kill()
}

// The whole process group of a child.
func goodChildGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// The parent asks to be reloaded.
func goodParent() error { return syscall.Kill(os.Getppid(), syscall.SIGUSR1) }

// Its own PID.
func goodSelf() error { return syscall.Kill(os.Getpid(), syscall.SIGHUP) }

// The kernel lists the children now.
func goodProcChildren() {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", os.Getpid(), os.Getpid()))
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		syscall.Kill(pid, syscall.SIGTERM)
	}
}

// The cgroup's members now.
func goodCgroupProcs(cgroup string) {
	data, _ := os.ReadFile(filepath.Join(cgroup, "cgroup.procs"))
	for _, line := range strings.Split(string(data), "\n") {
		if pid, err := strconv.Atoi(line); err == nil && pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// A /proc scan.
func goodProcScan(name string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		syscall.Kill(pid, syscall.SIGTERM)
	}
}

// The PID typed by the user on the command line.
func goodArgument() error {
	pid, err := strconv.Atoi(os.Args[1])
	if err != nil || pid <= 0 {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM)
}

// The command line is compared before the signal.
func goodCmdlineCheck(pidFile, want string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !bytes.HasPrefix(cmdline, []byte(want)) {
		return errors.New("not our daemon")
	}
	return syscall.Kill(pid, syscall.SIGTERM)
}

// The start time in the state file is compared with the process's.
func goodStartTime(path string) error {
	var st struct {
		PID   int    `json:"pid"`
		Start uint64 `json:"start"`
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	if processStartTime(st.PID) != st.Start {
		return errors.New("stale state file")
	}
	return syscall.Kill(st.PID, syscall.SIGTERM)
}

func processStartTime(pid int) uint64 {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	fields := strings.Fields(string(data))
	if len(fields) < 22 {
		return 0
	}
	v, _ := strconv.ParseUint(fields[21], 10, 64)
	return v
}

// safeprobe's identity, saved at start and checked at stop.
func goodIdentity(path string) error {
	var saved safeprobe.Identity
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		return err
	}
	now, err := safeprobe.Lookup(saved.PID)
	if err != nil || !now.Same(saved) {
		return errors.New("the process that wrote the file is gone")
	}
	return syscall.Kill(saved.PID, syscall.SIGTERM)
}

// The lock's holder, verified by safeprobe.
func goodSignalOwner(lockPath string) error {
	return safeprobe.SignalOwner(lockPath, syscall.SIGTERM)
}

// A pidfd opened and checked, then signalled through.
func goodPidfd(pidFile string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if processStartTime(pid) == 0 {
		return errors.New("gone")
	}
	return unix.PidfdSendSignal(fd, unix.SIGTERM, nil, 0)
}

// The owner still holds its lock on the PID file: flock fails.
func goodLockHeld(pidFile string) error {
	f, err := os.Open(pidFile)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
		return errors.New("not running: the lock is free")
	}
	var pid int
	if _, err := fmt.Fscan(f, &pid); err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM)
}

// gopsutil's create time is compared.
func goodGopsutil(pidFile string, started int64) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return err
	}
	if ct, err := p.CreateTime(); err != nil || ct != started {
		return errors.New("pid reused")
	}
	return p.Terminate()
}

// ps names the command before the kill.
func goodPs(pidFile, name string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	out, err := exec.Command("ps", "-o", "comm=", "-p", strconv.Itoa(pid)).Output()
	if err != nil || strings.TrimSpace(string(out)) != name {
		return errors.New("not ours")
	}
	return syscall.Kill(pid, syscall.SIGTERM)
}

// Signal 0 is a probe (PL001's business), not a signal.
func goodProbeOnly(pidFile string) bool {
	pid, err := readCheckedPID(pidFile)
	return err == nil && syscall.Kill(pid, 0) == nil // want `PL001: syscall.Kill\(pid, 0\) as a liveness test`
}

// A supervisor's worker: the field holds the child it started.
type worker struct {
	cmd *exec.Cmd
	pid int
}

func (w *worker) start() error {
	if err := w.cmd.Start(); err != nil {
		return err
	}
	w.pid = w.cmd.Process.Pid
	return nil
}

func (w *worker) goodStop() error { return syscall.Kill(w.pid, syscall.SIGTERM) }

// The signal's name comes from the config file, the PID from a child.
func goodSignalFromConfig(path string, cmd *exec.Cmd) error {
	var cfg struct {
		StopSignal int `json:"stop_signal"`
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return err
	}
	return cmd.Process.Signal(syscall.Signal(cfg.StopSignal))
}

// The PID file is written, never read back.
func goodWriteOnly(pidFile string) error {
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

var procRoot = "/proc"

// The parent's PID from /proc/<pid>/status, through a path variable.
func goodProcStatusVar(pid int) error {
	statusPath := filepath.Join(procRoot, strconv.Itoa(pid), "status")
	data, err := os.ReadFile(statusPath)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "PPid:"); ok {
			ppid, _ := strconv.Atoi(strings.TrimSpace(v))
			return syscall.Kill(ppid, syscall.SIGCHLD)
		}
	}
	return nil
}

// The same through a helper that names the /proc path.
func hostProc(parts ...string) string { return filepath.Join(append([]string{"/proc"}, parts...)...) }

func goodHostProc(pid int) error {
	data, err := os.ReadFile(hostProc(strconv.Itoa(pid), "status"))
	if err != nil {
		return err
	}
	ppid, _ := strconv.Atoi(strings.Fields(string(data))[1])
	return syscall.Kill(ppid, syscall.SIGCHLD)
}

// A runtime shim runs "runtime exec --pid-file", reads the PID the runtime
// wrote for the process it started, and later signals it: a descendant it
// reaps, not a stale number.
type execProcess struct {
	pid     int
	pidFile string
}

func (e *execProcess) start(cmd *exec.Cmd) error {
	cmd.Args = append(cmd.Args, "--pid-file", e.pidFile)
	if err := cmd.Run(); err != nil {
		return err
	}
	data, err := os.ReadFile(e.pidFile)
	if err != nil {
		return err
	}
	e.pid, err = strconv.Atoi(strings.TrimSpace(string(data)))
	return err
}

func (e *execProcess) goodKill(sig syscall.Signal) error { // want goodKill:"kill wrapper\\(sig=0, pid=-1, error\\)"
	if e.pid == 0 {
		return errors.New("not started")
	}
	return syscall.Kill(e.pid, sig)
}

// The same PID behind a locked accessor, as a shim keeps it.
type lockedPID struct {
	mu  sync.Mutex
	pid int
}

func (l *lockedPID) get() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pid
}

type shimExec struct {
	pid     lockedPID
	pidFile string
}

func (e *shimExec) start(cmd *exec.Cmd) error {
	if err := cmd.Run(); err != nil {
		return err
	}
	pid, err := readPID(e.pidFile)
	if err != nil {
		return err
	}
	e.pid.pid = pid
	return nil
}

func (e *shimExec) goodKill() error {
	return syscall.Kill(e.pid.get(), syscall.SIGKILL)
}
