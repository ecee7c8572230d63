package safeprobe

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// windowsChildEnv makes a re-executed test binary a child process for the
// Windows tests: it reads stdin to EOF, then exits with the code the
// variable holds. Its own variable and an init function keep it apart from
// whatever TestMain the package's portable tests have.
const windowsChildEnv = "SAFEPROBE_WINDOWS_TEST_CHILD"

func init() { runWindowsChild() }

func runWindowsChild() {
	v, ok := os.LookupEnv(windowsChildEnv)
	if !ok {
		return
	}
	code, err := strconv.Atoi(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bad %s=%q\n", windowsChildEnv, v)
		os.Exit(2)
	}
	io.Copy(io.Discard, os.Stdin)
	os.Exit(code)
}

// startChild starts a child that exits with code once stdin is closed.
func startChild(t *testing.T, code int) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), windowsChildEnv+"="+strconv.Itoa(code))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, stdin
}

// waitExited polls Probe until pid is no longer Running.
func waitExited(t *testing.T, pid int) State {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, err := Probe(pid)
		if s != Running || time.Now().After(deadline) {
			if err != nil {
				t.Errorf("Probe(%d): %v", pid, err)
			}
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func wantGone(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, os.ErrProcessDone) || !errors.Is(err, syscall.ESRCH) {
		t.Errorf("%s = %v; want an error matching os.ErrProcessDone and syscall.ESRCH", what, err)
	}
}

// TestWindowsFacts pins the Windows behaviour safeprobe exists for, so a
// change in Go or in the OS (or Wine) shows up here first.
func TestWindowsFacts(t *testing.T) {
	self := os.Getpid()
	p, err := os.FindProcess(self)
	if err != nil {
		t.Fatalf("FindProcess(self): %v", err)
	}
	defer p.Release()
	//pidlint:ignore PL002 pins the Windows behaviour safeprobe works around
	if err := p.Signal(syscall.Signal(0)); err == nil {
		t.Errorf("Signal(0) on self succeeded; Windows has no signal 0")
	} else {
		t.Logf("Signal(0) on self: %v", err)
	}
	if _, err := os.FindProcess(MaxPID); !errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
		t.Errorf("FindProcess(%d) = %v; want ERROR_INVALID_PARAMETER", MaxPID, err)
	}
	if self%4 == 0 {
		q, err := os.FindProcess(self + 1)
		if err != nil {
			t.Errorf("FindProcess(self+1) = %v; want the alias of self to open", err)
		} else {
			q.Release()
		}
	}
}

func TestWindowsProbeSelf(t *testing.T) {
	self := os.Getpid()
	p, err := os.FindProcess(self)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if err := CheckProcess(p); err != nil {
		t.Errorf("CheckProcess(self) = %v", err)
	}
	if !Alive(self) {
		t.Errorf("Alive(self) = false")
	}
}

// TestWindowsAliasesAreNotFound: the kernel ignores the two low bits of a
// PID, so OpenProcess(self+1..self+3) opens this process.
func TestWindowsAliasesAreNotFound(t *testing.T) {
	self := os.Getpid()
	if self%4 != 0 {
		t.Skipf("pid %d is not a multiple of 4", self)
	}
	for k := 1; k <= 3; k++ {
		pid := self + k
		if h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid)); err != nil {
			t.Logf("OpenProcess(self+%d): %v", k, err)
		} else {
			id, err := windows.GetProcessId(h)
			windows.CloseHandle(h)
			t.Logf("OpenProcess(self+%d) opened process %d (self %d), err %v", k, id, self, err)
		}
		if s, err := Probe(pid); s != NotFound || err != nil {
			t.Errorf("Probe(self+%d) = %v, %v; want not found", k, s, err)
		}
		wantGone(t, fmt.Sprintf("Check(self+%d)", k), Check(pid))
		if _, err := Lookup(pid); !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("Lookup(self+%d) = %v; want os.ErrProcessDone", k, err)
		}
	}
}

func TestWindowsLookupSelfIsStable(t *testing.T) {
	self := os.Getpid()
	id, err := Lookup(self)
	if err != nil {
		t.Fatal(err)
	}
	if id.PID != self || id.BootID != "" || id.StartTime == 0 {
		t.Fatalf("Lookup(self) = %+v; want pid %d, a start time and no boot ID", id, self)
	}
	// A FILETIME counts 100 ns intervals since 1601-01-01 UTC.
	now := uint64(time.Now().UnixNano()/100) + 116444736000000000
	if id.StartTime > now || now-id.StartTime > uint64(24*time.Hour/100) {
		t.Errorf("start time %d is not within the last day (now %d)", id.StartTime, now)
	}
	for i := 0; i < 3; i++ {
		again, err := Lookup(self)
		if err != nil || again != id {
			t.Fatalf("Lookup(self) = %v, %v; first %v", again, err, id)
		}
	}
}

func TestWindowsGonePID(t *testing.T) {
	// The kernel ignores the low bits: this is process 0x7ffffffc, far
	// beyond any PID handed out.
	wantGone(t, "Check(MaxPID)", Check(MaxPID))
	if s, err := Probe(MaxPID); s != NotFound || err != nil {
		t.Errorf("Probe(MaxPID) = %v, %v; want not found", s, err)
	}
	if _, err := Lookup(MaxPID); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Lookup(MaxPID) = %v; want os.ErrProcessDone", err)
	}
	for _, pid := range []int{0, -1} {
		if err := Check(pid); !errors.Is(err, ErrInvalidPID) {
			t.Errorf("Check(%d) = %v; want ErrInvalidPID", pid, err)
		}
	}
}

// TestWindowsExitedChild: an exited child is not found, both while Go's
// *os.Process still holds a handle on it (the process object lives on, and
// os.FindProcess opens it) and after Wait. Exit code 259 is STILL_ACTIVE,
// which GetExitCodeProcess also reports for a running process.
func TestWindowsExitedChild(t *testing.T) {
	for _, code := range []int{0, 3, 259} {
		t.Run(fmt.Sprintf("exit%d", code), func(t *testing.T) {
			cmd, stdin := startChild(t, code)
			pid := cmd.Process.Pid
			if s, err := Probe(pid); s != Running || err != nil {
				t.Fatalf("Probe(running child %d) = %v, %v", pid, s, err)
			}
			if err := CheckProcess(cmd.Process); err != nil {
				t.Fatalf("CheckProcess(running child) = %v", err)
			}
			id, err := Lookup(pid)
			if err != nil {
				t.Fatal(err)
			}
			if s, err := id.Probe(); s != Running || err != nil {
				t.Fatalf("%v.Probe() = %v, %v; want running", id, s, err)
			}

			stdin.Close()
			if s := waitExited(t, pid); s != NotFound {
				t.Fatalf("Probe(exited child %d, not waited) = %v; want not found", pid, s)
			}
			// Not waited yet: the object is still there.
			if q, err := os.FindProcess(pid); err != nil {
				t.Errorf("FindProcess(exited child, not waited) = %v; want the object still open", err)
			} else {
				q.Release()
			}
			wantGone(t, "CheckProcess(exited child, not waited)", CheckProcess(cmd.Process))
			wantGone(t, "Check(exited child, not waited)", Check(pid))
			if s, err := id.Probe(); s != NotFound || err != nil {
				t.Errorf("%v.Probe() after exit = %v, %v; want not found", id, s, err)
			}
			if again, err := Lookup(pid); err != nil || again != id {
				t.Errorf("Lookup(exited child, not waited) = %v, %v; want %v", again, err, id)
			}

			err = cmd.Wait()
			if got := cmd.ProcessState.ExitCode(); got != code {
				t.Fatalf("child exit code %d (%v), want %d", got, err, code)
			}
			if s, err := Probe(pid); s != NotFound || err != nil {
				t.Errorf("Probe(waited child) = %v, %v; want not found", s, err)
			}
			wantGone(t, "Check(waited child)", Check(pid))
			if s, err := id.Probe(); s != NotFound || err != nil {
				t.Errorf("%v.Probe() after Wait = %v, %v; want not found", id, s, err)
			}
		})
	}
}

// TestWindowsCheckProcessAfterWaitOrRelease: once p has been waited for or
// released, p.Pid may name another process; CheckProcess must not answer
// for that one. The reuse is simulated by pointing p.Pid at this process.
func TestWindowsCheckProcessAfterWaitOrRelease(t *testing.T) {
	cmd, stdin := startChild(t, 0)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Pid = os.Getpid()
	if err := CheckProcess(cmd.Process); !errors.Is(err, ErrInvalidPID) {
		t.Errorf("CheckProcess(waited child whose PID another process has) = %v; want ErrInvalidPID", err)
	}

	cmd, _ = startChild(t, 0)
	p := cmd.Process
	if err := CheckProcess(p); err != nil {
		t.Fatalf("CheckProcess(running child) = %v", err)
	}
	if err := p.Release(); err != nil {
		t.Fatal(err)
	}
	if err := CheckProcess(p); !errors.Is(err, ErrInvalidPID) {
		t.Errorf("CheckProcess(released process) = %v; want ErrInvalidPID", err)
	}
}

// denyOpen makes OpenProcess fail with ERROR_ACCESS_DENIED for every
// access mask deny accepts, as it does for a protected process or another
// user's, which Wine never does; every other call stays real.
func denyOpen(t *testing.T, deny func(access uint32) bool) {
	t.Helper()
	saved := sys
	t.Cleanup(func() { sys = saved })
	sys.openProcess = func(access, pid uint32) (windows.Handle, error) {
		if deny(access) {
			return windows.InvalidHandle, windows.ERROR_ACCESS_DENIED
		}
		return saved.openProcess(access, pid)
	}
}

// TestWindowsQueryOnlyExitCode259: a process the caller may not open with
// SYNCHRONIZE is probed through its exit code, and 259 (STILL_ACTIVE) is
// also a code a process can exit with: the exit time tells them apart. Real
// children under Wine; SYNCHRONIZE is denied through the OS layer.
func TestWindowsQueryOnlyExitCode259(t *testing.T) {
	denyOpen(t, func(access uint32) bool { return access&windows.SYNCHRONIZE != 0 })
	for _, code := range []int{259, 0} {
		t.Run(fmt.Sprintf("exit%d", code), func(t *testing.T) {
			cmd, stdin := startChild(t, code)
			pid := cmd.Process.Pid
			if s, err := Probe(pid); s != Running || err != nil {
				t.Fatalf("Probe(running child) = %v, %v; want running", s, err)
			}
			stdin.Close()
			// The child's object lives on (cmd holds a handle) until Wait.
			if s := waitExited(t, pid); s != NotFound {
				t.Fatalf("Probe(child exited with %d, SYNCHRONIZE denied) = %v; want not found", code, s)
			}
			if err := cmd.Wait(); cmd.ProcessState.ExitCode() != code {
				t.Fatalf("child exit code %d (%v), want %d", cmd.ProcessState.ExitCode(), err, code)
			}
		})
	}
}

// TestWindowsAccessDeniedAsksProcessList: OpenProcess's ERROR_ACCESS_DENIED
// does not prove the PID names a process (psutil issue 2359); the process
// list (a real Toolhelp snapshot under Wine) decides. The denial is
// injected through the OS layer: Wine never denies.
func TestWindowsAccessDeniedAsksProcessList(t *testing.T) {
	cmd, stdin := startChild(t, 0)
	child := cmd.Process.Pid
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	denyOpen(t, func(uint32) bool { return true })
	self := os.Getpid()
	if s, err := Probe(self); s != Running || err != nil {
		t.Errorf("Probe(self, access denied) = %v, %v; want running: it is listed", s, err)
	}
	for _, c := range []struct {
		name string
		pid  int
	}{{"exited child", child}, {"self+1", self + 1}, {"self+3", self + 3}, {"MaxPID", MaxPID}} {
		if s, err := Probe(c.pid); s != NotFound || err != nil {
			t.Errorf("Probe(%s %d, access denied) = %v, %v; want not found: it is not listed", c.name, c.pid, s, err)
		}
	}
}
