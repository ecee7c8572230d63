// Package pidfileblock holds labelled shapes for PL008: functions named
// bad* guard a single instance with a PID file and no kernel lock; good*
// ones are correct look-alikes.
package pidfileblock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"

	"pidfileblock/proc"

	"github.com/pidlint/pidlint/safeprobe"
)

var errRunning = errors.New("already running")

// The hermes-agent shape: O_EXCL, and any failure refuses.
func badExclusiveCreate(pidFile string) error {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644) // want `PL008: PID file created with O_EXCL and no stale-file recovery: a file left by a crash \(SIGKILL, power loss\) fails every later start, and the service stays down \(systemd's Restart= gives up after StartLimitBurst failed starts and leaves the unit failed; launchd's KeepAlive respawns it in a throttled loop\); use safeprobe.TryAcquire`
	if err != nil {
		return fmt.Errorf("another instance is running: %w", err)
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "%d\n", os.Getpid())
	return err
}

// os.IsExist decides, and the process exits.
func badExclusiveFatal(pidFile string) *os.File {
	f, err := os.OpenFile(pidFile, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600) // want `PL008: PID file created with O_EXCL and no stale-file recovery`
	if os.IsExist(err) {
		log.Fatalf("%s exists: is the daemon running?", pidFile)
	}
	if err != nil {
		log.Fatal(err)
	}
	f.WriteString(strconv.Itoa(os.Getpid()))
	return f
}

// A clean-up at exit does not help after SIGKILL.
func badExclusiveDeferRemove(pidFile string, serve func() error) error {
	f, err := os.OpenFile(pidFile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644) // want `PL008: PID file created with O_EXCL and no stale-file recovery`
	if errors.Is(err, fs.ErrExist) {
		return errRunning
	} else if err != nil {
		return err
	}
	fmt.Fprintln(f, os.Getpid())
	f.Close()
	defer os.Remove(pidFile)
	return serve()
}

// Recovery trusts kill(pid, 0): a reused PID blocks for ever.
func badExclusiveBlindRecovery(pidFile string) error {
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d", os.Getpid())
			return f.Close()
		}
		if !os.IsExist(err) {
			return err
		}
		data, _ := os.ReadFile(pidFile)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		if pid > 0 && syscall.Kill(pid, 0) == nil { // want `PL008: the PID file created with O_EXCL at guard\.go:69 is recovered only when this probe of the PID it names says dead: after a reboot or PID reuse an unrelated process has that number` `PL001: syscall.Kill\(pid, 0\) as a liveness test`
			return errRunning
		}
		os.Remove(pidFile)
	}
	return errRunning
}

// Recovery through os.FindProcess and Signal(0), in a helper.
func badExclusiveHelperRecovery(pidFile string) error {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if os.IsExist(err) {
		if staleRemoved(pidFile) { // want `PL008: the PID file created with O_EXCL at guard\.go:89 is recovered only when this probe`
			return badExclusiveHelperRecovery(pidFile)
		}
		return errRunning
	}
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(strconv.Itoa(os.Getpid()))
	return err
}

func staleRemoved(pidFile string) bool {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return false
	}
	p, _ := os.FindProcess(pid)
	if err := p.Signal(syscall.Signal(0)); err == nil { // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM .* on every Unix`
		return false
	}
	return os.Remove(pidFile) == nil
}

// The create is a helper; its callers only pass the error on.
func badCreatePidFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644) // want `PL008: PID file created with O_EXCL and no stale-file recovery`
	if err != nil {
		return nil, fmt.Errorf("pid file: %w", err)
	}
	return f, nil
}

func startViaHelper(path string) error {
	f, err := badCreatePidFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "%d", os.Getpid())
	return err
}

// A lock with a timeout that a dead holder never releases.
func badExclusiveWait(lockPidFile string) (*os.File, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := os.OpenFile(lockPidFile, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644) // want `PL008: PID file created with O_EXCL and no stale-file recovery`
		if err == nil {
			fmt.Fprint(f, os.Getpid())
			return f, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("timed out waiting for %s", lockPidFile)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The file's existence refuses.
func badStatExists(pidFile string) error {
	if _, err := os.Stat(pidFile); err == nil { // want `PL008: start refused while the PID file exists: a file left by a crash`
		return fmt.Errorf("%s exists: already running", pidFile)
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

type config struct {
	PidFile string
}

func badStatNotMissing(cfg *config) {
	if _, err := os.Stat(cfg.PidFile); !os.IsNotExist(err) { // want `PL008: start refused while the PID file exists`
		fmt.Fprintln(os.Stderr, "daemon already running")
		os.Exit(1)
	}
	os.WriteFile(cfg.PidFile, []byte(fmt.Sprint(os.Getpid())), 0o644)
}

func badLstatExists(runDir string) error {
	_, err := os.Lstat(runDir + "/agent.pid") // want `PL008: start refused while the PID file exists`
	if err == nil {
		return errRunning
	}
	return nil
}

// Read the PID, refuse while kill(pid, 0) succeeds.
func badProbeRefuses(pidFile string) error {
	if data, err := os.ReadFile(pidFile); err == nil {
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		if err := syscall.Kill(pid, 0); err == nil { // want `PL008: start refused \(at guard\.go:\d+\) while this probe says the PID read from the PID file is alive: after a crash and a reboot or PID reuse an unrelated process has that number` `PL001: syscall.Kill\(pid, 0\) as a liveness test`
			return fmt.Errorf("already running as %d", pid)
		}
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// safeprobe.Alive is right about the PID, but a PID alone cannot say whose.
func badSafeprobeAliveRefuses(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err == nil {
		if pid, err := safeprobe.ParsePID(string(data)); err == nil && safeprobe.Alive(pid) { // want `PL008: start refused \(at guard\.go:\d+\) while this probe says the PID read from the PID file is alive`
			return fmt.Errorf("already running as %d", pid)
		}
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// gopsutil.
func badGopsutilRefuses(pidFile string) {
	data, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if ok, _ := process.PidExists(int32(pid)); ok { // want `PL008: start refused \(at guard\.go:\d+\) while this probe says`
		log.Fatalf("already running (pid %d)", pid)
	}
}

// A helper of the package's own.
func isRunning(pid int) bool {
	return syscall.Kill(pid, 0) == nil // want `PL001: syscall.Kill\(pid, 0\) as a liveness test`
}

func badHelperRefuses(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
		if isRunning(pid) { // want `PL008: start refused \(at guard\.go:\d+\) while this probe says`
			return errRunning
		}
		os.Remove(pidFile)
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// os.FindProcess never fails on Unix: this refuses every start.
func badFindProcessRefuses(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if _, err := os.FindProcess(pid); err == nil { // want `PL008: start refused \(at guard\.go:\d+\) while this probe says` `PL003: os.FindProcess never fails`
		return errRunning
	}
	return nil
}

// Signal(0) through the process, else branch refuses.
func badSignalElseRefuses(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	p, _ := os.FindProcess(pid)
	if err := p.Signal(syscall.Signal(0)); err != nil { // want `PL008: start refused \(at guard\.go:\d+\) while this probe says` `PL002: Process.Signal\(0\) as a liveness test reads EPERM .* on every Unix`
		os.Remove(pidFile)
	} else {
		return errRunning
	}
	return nil
}

// errors.Is with os.ErrExist, and a non-zero exit.
func badExclusiveExit(pidFile string) {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644) // want `PL008: PID file created with O_EXCL and no stale-file recovery`
	if errors.Is(err, os.ErrExist) {
		fmt.Fprintf(os.Stderr, "%s: already running\n", pidFile)
		os.Exit(2)
	}
	fmt.Fprintln(f, os.Getpid())
}

type server struct{ pidPath string }

func (s *server) badStatFatal() {
	if _, err := os.Stat(s.pidPath); err == nil { // want `PL008: start refused while the PID file exists`
		log.Fatalf("pid file %s exists", s.pidPath)
	}
	os.WriteFile(s.pidPath, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// golang.org/x/sys/unix's kill.
func badUnixKillRefuses(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err == nil {
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		if pid > 0 && unix.Kill(pid, 0) == nil { // want `PL008: start refused \(at guard\.go:\d+\) while this probe says` `PL001: unix.Kill\(pid, 0\) as a liveness test`
			return errRunning
		}
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// A JSON state file names the previous instance.
func badStateFileRefuses(stateFile string) error {
	var st struct {
		PID  int    `json:"pid"`
		Addr string `json:"addr"`
	}
	if data, err := os.ReadFile(stateFile); err == nil && json.Unmarshal(data, &st) == nil {
		if safeprobe.Check(st.PID) == nil { // want `PL008: start refused \(at guard\.go:\d+\) while this probe says`
			return fmt.Errorf("already serving on %s", st.Addr)
		}
	}
	st.PID = os.Getpid()
	data, _ := json.Marshal(st)
	return os.WriteFile(stateFile, data, 0o644)
}

// A helper reads the file and probes; the start refuses on its answer,
// through a named error and a bare return.
func daemonRunning(pidFile string) (bool, error) {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return false, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return false, err
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false, nil
	}
	return p.Signal(syscall.Signal(0)) == nil, nil // want `PL002: Process.Signal\(0\) as a liveness test reads EPERM .* on every Unix`
}

func badHelperNamedResult(pidFile string) (err error) {
	running, _ := daemonRunning(pidFile) // want `PL008: start refused \(at guard\.go:\d+\) while this probe says`
	if running {
		err = fmt.Errorf("%s: daemon already running", pidFile)
		return
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// The same helper answers a status command: no refusal.
func goodHelperStatus(pidFile string) {
	if running, _ := daemonRunning(pidFile); running {
		fmt.Println("running")
		return
	}
	fmt.Println("stopped")
}

// Another package's probe, correct about EPERM but blind to reuse.
func badImportedProbe(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && proc.Alive(pid) { // want `PL008: start refused \(at guard\.go:\d+\) while this probe says`
			return fmt.Errorf("pid file found, ensure the daemon is not running or delete %s", pidFile)
		}
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// O_EXCL through the syscall package.
func badSyscallExclusive(pidFile string) error {
	fd, err := syscall.Open(pidFile, syscall.O_CREAT|syscall.O_EXCL|syscall.O_WRONLY, 0o644) // want `PL008: PID file created with O_EXCL and no stale-file recovery`
	if err != nil {
		return errRunning
	}
	defer syscall.Close(fd)
	_, err = syscall.Write(fd, []byte(strconv.Itoa(os.Getpid())))
	return err
}

// Existence through a successful read.
func badReadExists(pidFile string) error {
	if _, err := os.ReadFile(pidFile); err == nil { // want `PL008: start refused while the PID file exists`
		return errRunning
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}
