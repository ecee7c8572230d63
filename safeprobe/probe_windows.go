package safeprobe

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// stillActive is STILL_ACTIVE, the exit code GetExitCodeProcess reports for
// a process that has not exited (x/sys/windows has no constant for it). A
// process may also exit with 259, so it proves nothing alone.
const stillActive = 259

// probe opens the process and asks whether its handle is signaled:
//
//   - OpenProcess fails with ERROR_INVALID_PARAMETER for a PID no process
//     object has, and with ERROR_ACCESS_DENIED for a process the caller may
//     not open (a protected process, another user's), but also for some
//     PIDs no process has (psutil issue 2359): access denied proves
//     nothing, and the system's process list decides (probeListed).
//   - The kernel ignores a PID's two low bits, so OpenProcess(pid+1..pid+3)
//     opens process pid: GetProcessId(h) must equal the PID asked for.
//   - A process handle is signaled once the process has exited. Windows has
//     no zombie state: an exited process whose object lives on because some
//     handle to it is still open is NotFound.
//
// No signal is sent: (*os.Process).Signal(syscall.Signal(0)) always fails on
// Windows.
//
//	no process: NotFound, as for an alias pid+1..pid+3
//	EPERM:      ERROR_ACCESS_DENIED: exit code and time with query access, else the process list
//	zombie:     none on Windows: an exited process a handle keeps is NotFound
//	thread ID:  NotFound: OpenProcess refuses a thread's ID, from the same table as PIDs
func probe(pid int) (State, error) {
	const access = windows.SYNCHRONIZE | windows.PROCESS_QUERY_LIMITED_INFORMATION
	h, err := sys.openProcess(access, uint32(pid))
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		// Without SYNCHRONIZE the handle cannot be waited on, but a
		// query-only handle still tells an alias apart and an exit.
		return probeQueryOnly(pid)
	}
	if s, err := openState(pid, err); s != Running {
		return s, err
	}
	defer sys.closeHandle(h)
	if same, err := sameProcess(h, pid); !same {
		return notSame(pid, err)
	}
	event, err := sys.waitForSingleObject(h, 0)
	switch {
	case err != nil:
		return Unknown, fmt.Errorf("safeprobe: process %d: WaitForSingleObject: %w", pid, err)
	case event == uint32(windows.WAIT_TIMEOUT):
		return Running, nil
	case event == windows.WAIT_OBJECT_0:
		return NotFound, nil // exited
	}
	return Unknown, fmt.Errorf("safeprobe: process %d: WaitForSingleObject: unexpected result %#x", pid, event)
}

// probeQueryOnly probes a process the caller may not open with SYNCHRONIZE.
// An exit code other than STILL_ACTIVE proves the process has exited. A
// process may exit with 259, STILL_ACTIVE itself: then its exit time, zero
// until it exits, tells. Without even query access, probeListed decides.
func probeQueryOnly(pid int) (State, error) {
	h, err := sys.openProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, uint32(pid))
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return probeListed(pid)
	}
	if s, err := openState(pid, err); s != Running {
		return s, err
	}
	defer sys.closeHandle(h)
	if same, err := sameProcess(h, pid); !same {
		return notSame(pid, err)
	}
	code, err := sys.getExitCodeProcess(h)
	switch {
	case err != nil:
		return Unknown, fmt.Errorf("safeprobe: process %d: GetExitCodeProcess: %w", pid, err)
	case code != stillActive:
		return NotFound, nil
	}
	_, exited, err := sys.getProcessTimes(h)
	switch {
	case err != nil:
		return Unknown, fmt.Errorf("safeprobe: process %d: GetProcessTimes: %w", pid, err)
	case exited != (windows.Filetime{}):
		return NotFound, nil // exited with code 259
	}
	return Running, nil
}

// probeListed probes a PID that OpenProcess refuses to open at all. Access
// denied does not prove a process has the PID, so the system's process
// list decides: Running if a process with exactly this PID is listed (an
// alias, pid+1..pid+3, never is), NotFound if not.
func probeListed(pid int) (State, error) {
	listed, err := sys.processListed(uint32(pid))
	switch {
	case err != nil:
		return Unknown, fmt.Errorf("safeprobe: process %d: OpenProcess: access denied, and the process list: %w", pid, err)
	case listed:
		return Running, nil
	}
	return NotFound, nil
}

// openState maps the error of OpenProcess (other than ERROR_ACCESS_DENIED) to
// a state: Running when the handle is open and the probe goes on.
func openState(pid int, err error) (State, error) {
	switch {
	case err == nil:
		return Running, nil
	case errors.Is(err, windows.ERROR_INVALID_PARAMETER):
		return NotFound, nil
	}
	return Unknown, fmt.Errorf("safeprobe: process %d: OpenProcess: %w", pid, err)
}

// sameProcess reports whether h, opened for pid, is the process with that
// PID and not one whose PID differs only in the two low bits, which leaves
// pid no process's PID.
func sameProcess(h windows.Handle, pid int) (bool, error) {
	got, err := sys.getProcessId(h)
	if err != nil {
		return false, fmt.Errorf("GetProcessId: %w", err)
	}
	return int64(got) == int64(pid), nil
}

// notSame is the state for a handle sameProcess rejected.
func notSame(pid int, err error) (State, error) {
	if err != nil {
		return Unknown, fmt.Errorf("safeprobe: process %d: %w", pid, err)
	}
	return NotFound, nil
}

// probeProcess asks p first: after p.Wait or p.Release it holds no handle,
// and p.Pid may name another process by now: that is an ErrInvalidPID, as
// after Release on Unix (which sets p.Pid to -1). On Windows Signal(0) sends nothing; it only reports that state. The
// process handle inside an *os.Process is not exported, so the rest is a
// PID probe: while p holds the handle, Windows cannot give p.Pid to another
// process, so the PID still names p's process.
//
//	no process: Unknown, ErrInvalidPID once p was waited for or released; as probe before
//	EPERM:      as probe
//	zombie:     none on Windows: an exited process p holds is NotFound
//	thread ID:  as probe (only a Process made by hand has a thread's ID)
func probeProcess(p *os.Process) (State, error) {
	switch err := handleState(p); {
	case errors.Is(err, os.ErrProcessDone):
		return NotFound, nil
	case errors.Is(err, syscall.EINVAL):
		// Wait releases the handle too.
		return Unknown, fmt.Errorf("safeprobe: process %d was waited for or released, so its PID may name another process now: %w", p.Pid, ErrInvalidPID)
	}
	return probe(p.Pid)
}

// handleState is p.Signal(0): EINVAL once p was waited for or released,
// os.ErrProcessDone if it is done otherwise, EWINDOWS while p holds its
// handle. A Process that
// is a struct literal rather than from os.FindProcess or os.StartProcess
// has no handle, and Signal panics on it; then it is nil, and the PID is
// all there is.
func handleState(p *os.Process) (err error) {
	defer func() {
		if recover() != nil {
			err = nil
		}
	}()
	//pidlint:ignore PL002 reads only whether p was waited for or released
	return p.Signal(syscall.Signal(0))
}
