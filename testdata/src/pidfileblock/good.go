package pidfileblock

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofrs/flock"

	"github.com/pidlint/pidlint/safeprobe"
)

// flock decides; the PID inside is for people.
func goodFlock(pidFile string) (*os.File, error) {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, errRunning
	}
	f.Truncate(0)
	fmt.Fprintf(f, "%d\n", os.Getpid())
	return f, nil
}

// O_EXCL and flock together: the lock decides.
func goodExclusiveAndFlock(pidFile string) error {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644)
	if err != nil {
		if f, err = os.OpenFile(pidFile, os.O_RDWR, 0); err != nil {
			return err
		}
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return errRunning
	}
	_, err = fmt.Fprint(f, os.Getpid())
	return err
}

// gofrs/flock.
func goodGofrsFlock(pidFile string) error {
	fl := flock.New(pidFile)
	ok, err := fl.TryLock()
	if err != nil || !ok {
		return errRunning
	}
	if _, err := os.Stat(pidFile); err == nil {
		return fmt.Errorf("%s: unexpected", pidFile)
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// safeprobe's lock.
func goodTryAcquire(pidFile string) (*safeprobe.Lock, error) {
	return safeprobe.TryAcquire(pidFile, nil)
}

// Written for systemd's PIDFile=, never read back.
func goodSystemdPIDFile(pidFile string) error {
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
}

// An exclusive temporary file, renamed into place: not a PID file.
func goodExclusiveTemp(dir string, data []byte) error {
	tmp := filepath.Join(dir, ".state.tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("concurrent writer: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	f.Close()
	return os.Rename(tmp, filepath.Join(dir, "state"))
}

// Stale files are removed without asking: never blocked (if racy).
func goodExclusiveRemoveStale(pidFile string) error {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if os.IsExist(err) {
		os.Remove(pidFile)
		f, err = os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprint(f, os.Getpid())
	return err
}

type ownerRecord struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
}

// Recovery checks the identity the file recorded.
func goodExclusiveIdentityRecovery(pidFile string) error {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if os.IsExist(err) {
		var rec ownerRecord
		data, _ := os.ReadFile(pidFile)
		if json.Unmarshal(data, &rec) == nil {
			if id, err := safeprobe.Lookup(rec.PID); err == nil && id.StartTime == rec.Start {
				return errRunning
			}
		}
		os.Remove(pidFile)
		return goodExclusiveIdentityRecovery(pidFile)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	self, _ := safeprobe.Lookup(os.Getpid())
	return json.NewEncoder(f).Encode(ownerRecord{PID: self.PID, Start: self.StartTime})
}

// A status command: alive is an answer, not a refusal.
func goodStatus(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		fmt.Println("not running")
		return nil
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if err := syscall.Kill(pid, 0); err == nil { // want `PL001: syscall.Kill\(pid, 0\) as a liveness test`
		fmt.Printf("running as %d\n", pid)
		return nil
	}
	fmt.Println("stale pid file")
	return nil
}

// A status command that exits 0 when running.
func goodStatusExit(pidFile string) {
	data, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if safeprobe.Alive(pid) {
		fmt.Println("running")
		os.Exit(0)
	}
	os.Exit(3)
}

// Waiting for the old instance to exit after a stop.
func goodWaitExit(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return nil
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	for i := 0; i < 50; i++ {
		if syscall.Kill(pid, 0) != nil { // want `PL001: syscall.Kill\(pid, 0\) as a liveness test`
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("still running")
}

// stop: the dead answer is the error.
func goodStopNotRunning(pidFile string) error {
	if _, err := os.Stat(pidFile); os.IsNotExist(err) {
		return errors.New("not running")
	}
	data, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if !safeprobe.Alive(pid) {
		return errors.New("not running")
	}
	return safeprobe.SignalOwner(pidFile, syscall.SIGTERM)
}

// A config file's existence, not a PID file's.
func goodConfigExists(path string) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists; use --force", path)
	}
	return os.WriteFile(path, []byte("{}"), 0o644)
}

// A stale PID file is removed when found.
func goodStatRemove(pidFile string) error {
	if _, err := os.Stat(pidFile); err == nil {
		if err := os.Remove(pidFile); err != nil {
			return fmt.Errorf("removing stale %s: %w", pidFile, err)
		}
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// The command line is checked: a reused PID does not block.
func goodVerifiedRefuses(pidFile, name string) error {
	data, err := os.ReadFile(pidFile)
	if err == nil {
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if safeprobe.Alive(pid) && strings.Contains(string(cmdline), name) {
			return errRunning
		}
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// A child's PID, not a file's.
func goodChildAlive(cmd *exec.Cmd) error {
	if syscall.Kill(cmd.Process.Pid, 0) == nil { // want `PL001: syscall.Kill\(pid, 0\) as a liveness test`
		return errors.New("child still running")
	}
	return nil
}

// A stop that checks the old instance went: it signals first.
func goodStopThenCheck(pidFile string) error {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return err
	}
	pid, err := safeprobe.ParsePID(string(data))
	if err != nil {
		return err
	}
	syscall.Kill(pid, syscall.SIGTERM) // want `PL007: syscall.Kill sends syscall.SIGTERM to a PID read from the file pidFile at good\.go:226 without checking`
	time.Sleep(time.Second)
	if syscall.Kill(pid, 0) == nil { // want `PL001: syscall.Kill\(pid, 0\) as a liveness test`
		return errors.New("still running after SIGTERM")
	}
	return nil
}

// The start time recorded next to the PID is compared.
func goodStartTimeRefuses(pidFile string) error {
	var rec ownerRecord
	if data, err := os.ReadFile(pidFile); err == nil && json.Unmarshal(data, &rec) == nil {
		if id, err := safeprobe.Lookup(rec.PID); err == nil && id.StartTime == rec.Start {
			return errRunning
		}
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// A leftover file is only worth a warning.
func goodStatWarns(pidFile string) error {
	if _, err := os.Stat(pidFile); err == nil {
		fmt.Fprintf(os.Stderr, "warning: replacing %s\n", pidFile)
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// An fcntl lock on the PID file (POSIX record lock).
func goodFcntlLock(pidFile string) (*os.File, error) {
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk); err != nil {
		f.Close()
		return nil, errRunning
	}
	if data, _ := os.ReadFile(pidFile); len(data) > 0 {
		fmt.Fprintf(os.Stderr, "previous instance %s did not clean up\n", strings.TrimSpace(string(data)))
	}
	f.Truncate(0)
	fmt.Fprintf(f, "%d\n", os.Getpid())
	return f, nil
}

// A mount point with a random name, created exclusively; the own PID only
// names a /proc path, it is not written.
func goodExclusiveMountPoint(baseDir, name string) (string, error) {
	target := filepath.Join(baseDir, name)
	f, err := os.OpenFile(target, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return "", err
	}
	f.Close()
	src := fmt.Sprintf("/proc/%d/ns/net", os.Getpid())
	return src, nil
}

// A PID file read back by its writer: its absence is the failure here,
// and an error behind a further branch (a parse) refuses nothing.
func goodReadBackOwnPIDFile(pidFile string) error {
	f, err := os.Open(pidFile)
	if err != nil {
		return err
	}
	defer f.Close()
	var pid int
	if _, err := fmt.Fscan(f, &pid); err != nil {
		return fmt.Errorf("reading %s: %v", pidFile, err)
	}
	if pid != os.Getpid() {
		return errors.New("the PID file names another process")
	}
	return nil
}

// The guard is the helper's, reported there; the caller's own errors,
// behind branches of their own, refuse nothing more.
func goodCallerOfRefusingHelper(pidFile string, cmd *exec.Cmd) error {
	if err := badProbeRefuses(pidFile); err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting: %v", err)
	}
	return nil
}
