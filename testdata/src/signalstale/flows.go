package signalstale // want package:"has wrappers"

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/shirou/gopsutil/v4/process"
)

// Shapes of real daemons whose stored PID travels: through helpers,
// copies, struct fields filled by decoders and loaders, maps and slices,
// method values, returned processes, database rows, the environment,
// closures, and wrappers two calls deep.

// firstLine returns the first line of a file's data.
func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(s)
}

func badFirstLineHelper(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(firstLine(data))
	if err != nil || pid <= 0 {
		return fmt.Errorf("%s: no pid", pidFile)
	}
	target := pid                                // a local copy
	return syscall.Kill(target, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file pidFile at flows\.go:30 and parsed with no upper bound`
}

type daemonConfig struct {
	Daemon struct {
		PID  int    `json:"pid"`
		Name string `json:"name"`
	} `json:"daemon"`
}

// loadConfig fills cfg from a JSON file: a config loader.
func loadConfig(path string, cfg *daemonConfig) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, cfg)
}

func badConfigLoader(path string) error {
	var cfg daemonConfig
	if err := loadConfig(path, &cfg); err != nil {
		return err
	}
	return syscall.Kill(cfg.Daemon.PID, syscall.SIGHUP) // want `PL007: syscall.Kill sends syscall.SIGHUP to a PID from field PID decoded from the file path at flows\.go:55 that is never checked`
}

type jobWorker struct {
	Name string `json:"name"`
	Pid  int    `json:"pid"`
}

// A supervisor's state: a map of workers, decoded.
func badMapOfWorkers(path string) {
	data, _ := os.ReadFile(path)
	var workers map[string]jobWorker
	if json.Unmarshal(data, &workers) != nil {
		return
	}
	for _, w := range workers {
		syscall.Kill(w.Pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID from field jobWorker\.Pid decoded from the file path at flows\.go:75`
	}
}

// The same as a slice, through a decoder over the opened file.
func badSliceOfWorkers(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var list []jobWorker
	if err := json.NewDecoder(f).Decode(&list); err != nil {
		return err
	}
	for i := range list {
		p, err := os.FindProcess(list[i].Pid)
		if err != nil {
			continue
		}
		p.Signal(syscall.SIGTERM) // want `PL007: Process.Signal sends syscall.SIGTERM to a PID from field jobWorker\.Pid decoded from the file path at flows\.go:91`
	}
	return nil
}

// A method value stands for the signal.
func badMethodValue(pidFile string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	p, _ := os.FindProcess(pid)
	send := p.Signal
	return send(syscall.SIGINT) // want `PL007: Process.Signal sends syscall.SIGINT to a PID read from the file path at helpers\.go:14 without checking`
}

// findDaemon returns the process the PID file names.
func findDaemon(pidFile string) (*os.Process, error) {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return nil, err
	}
	return os.FindProcess(pid)
}

func badReturnedProcess(pidFile string) error {
	proc, err := findDaemon(pidFile)
	if err != nil {
		return err
	}
	return proc.Signal(syscall.SIGTERM) // want `PL007: Process.Signal sends syscall.SIGTERM to a PID read from the file path at helpers\.go:14 without checking`
}

// A job runner's PID, from its database.
func badDatabaseRow(db *sql.DB, job string) error {
	var pid int
	if err := db.QueryRow("SELECT pid FROM jobs WHERE name = ?", job).Scan(&pid); err != nil {
		return err
	}
	if pid <= 0 {
		return errors.New("no pid")
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID from a database row at flows\.go:135`
}

// A PID handed down in the environment.
func badEnvironment() error {
	pid, err := strconv.ParseInt(os.Getenv("WORKER_PID"), 10, 32)
	if err != nil || pid <= 0 {
		return err
	}
	return syscall.Kill(int(pid), syscall.SIGUSR2) // want `PL007: syscall.Kill sends syscall.SIGUSR2 to a PID from the environment variable WORKER_PID at flows\.go:146 without checking`
}

// /proc/PID/comm read and logged, never compared: no check.
func badCommLogged(pidFile string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	log.Printf("stopping %s (%d)", comm, pid)
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at helpers\.go:14`
}

// ps -p answers whether the number is taken, not by whom.
func badPsListing(pidFile string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	if exec.Command("ps", "-p", strconv.Itoa(pid)).Run() != nil { // want `PL005: exec of ps -p as a liveness test`
		return errors.New("not running")
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at helpers\.go:14`
}

// maybeSignal and term: a signal two calls deep.
func maybeSignal(pid int, sig os.Signal) error { // want maybeSignal:"signal wrapper\\(sig=1, pid=0, error\\)"
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}

func term(pid int) error { return maybeSignal(pid, syscall.SIGTERM) }

func badTwoDeep(pidFile string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	return term(pid) // want `PL007: term \(Process.Signal\) sends syscall.SIGTERM to a PID read from the file path at helpers\.go:14 without checking`
}

// gopsutil's process, made for the number.
func badGopsutilTerminate(pidFile string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return err
	}
	return p.Terminate() // want `PL007: process.Process.Terminate sends SIGTERM to a PID read from the file path at helpers\.go:14 without checking`
}

// A flock on another file (the daemon's log) is no check of this PID.
func badUnrelatedLock(pidFile, logFile string) error {
	f, err := os.Open(logFile)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return err
	}
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file path at helpers\.go:14`
}

// The stop runs later, in a closure the PID is captured by.
func badClosure(pidFile string) func() {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return func() {}
	}
	return func() {
		syscall.Kill(pid, syscall.SIGKILL) // want `PL007: syscall.Kill sends syscall.SIGKILL to a PID read from the file path at helpers\.go:14`
	}
}

// A supervisor keeps its own child's process beside the PID it read: the
// child's is its own, only the file's is stale.
type supervised struct {
	child   *exec.Cmd
	oldPID  int
	started bool
}

func (s *supervised) goodKillChild() error {
	if s.child == nil || s.child.Process == nil {
		return nil
	}
	return s.child.Process.Kill()
}

func (s *supervised) goodSignalChildPID() error {
	return syscall.Kill(s.child.Process.Pid, syscall.SIGTERM)
}

// The name from /proc/PID/comm is compared: a name check, which counts
// (-strict reports it).
func goodCommCompared(pidFile string) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil || strings.TrimSpace(string(comm)) != "mydaemon" {
		return errors.New("not our daemon")
	}
	return syscall.Kill(pid, syscall.SIGTERM)
}

// gopsutil's create time against the one recorded, two calls deep.
func goodCreateTimeHelper(pidFile string, started int64) error {
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	if !sameStart(int32(pid), started) {
		return errors.New("pid reused")
	}
	return term(pid)
}

func sameStart(pid int32, started int64) bool {
	p, err := process.NewProcess(pid)
	if err != nil {
		return false
	}
	t, err := p.CreateTime()
	return err == nil && t == started
}

// The flock on the PID file itself: held means its writer lives.
func goodFlockSamePath(pidFile string) error {
	f, err := os.Open(pidFile)
	if err != nil {
		return err
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) == nil {
		return errors.New("stale: nobody holds the lock")
	}
	pid, err := readCheckedPID(pidFile)
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGTERM)
}

// A row whose start time is compared with the process's.
func goodDatabaseRowChecked(db *sql.DB, job string) error {
	var pid int
	var start uint64
	if err := db.QueryRow("SELECT pid, start FROM jobs WHERE name = ?", job).Scan(&pid, &start); err != nil {
		return err
	}
	if pid <= 0 || processStartTime(pid) != start {
		return errors.New("gone")
	}
	return syscall.Kill(pid, syscall.SIGTERM)
}
