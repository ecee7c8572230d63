package safeprobe

import (
	"errors"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/windows"
)

// fakeWindows answers the probe's Windows calls for one process, to reach
// what Wine does not produce: ERROR_ACCESS_DENIED (a protected process,
// another user's, or a PID no process has) and calls that fail.
type fakeWindows struct {
	openErr  map[uint32]error // OpenProcess's error, by access mask
	id       uint32           // GetProcessId: the PID of the opened process
	idErr    error
	event    uint32 // WaitForSingleObject
	waitErr  error
	exitCode uint32 // GetExitCodeProcess
	exitErr  error
	created  windows.Filetime
	exited   windows.Filetime // zero while the process runs
	timesErr error
	listed   []uint32 // the PIDs in the process list
	listErr  error
	lists    int // process lists taken

	opened  []uint32 // access masks of the handles opened
	pids    []uint32 // PIDs OpenProcess was asked for
	handles int      // handles open
}

const fakeHandle = windows.Handle(0x5a5a)

// install makes f the OS layer for the rest of the test, and fails the test
// if a handle is left open.
func (f *fakeWindows) install(t *testing.T) {
	t.Helper()
	use := func(h windows.Handle) {
		if h != fakeHandle {
			t.Errorf("call on handle %#x, not the one opened", h)
		}
	}
	saved := sys
	sys = windowsOS{
		openProcess: func(access, pid uint32) (windows.Handle, error) {
			f.pids = append(f.pids, pid)
			if err := f.openErr[access]; err != nil {
				return 0, err
			}
			f.opened = append(f.opened, access)
			f.handles++
			return fakeHandle, nil
		},
		waitForSingleObject: func(h windows.Handle, ms uint32) (uint32, error) {
			use(h)
			if ms != 0 {
				t.Errorf("WaitForSingleObject(h, %d): a probe must not block", ms)
			}
			if f.waitErr != nil {
				return windows.WAIT_FAILED, f.waitErr
			}
			return f.event, nil
		},
		getProcessId: func(h windows.Handle) (uint32, error) {
			use(h)
			return f.id, f.idErr
		},
		getExitCodeProcess: func(h windows.Handle) (uint32, error) {
			use(h)
			return f.exitCode, f.exitErr
		},
		getProcessTimes: func(h windows.Handle) (windows.Filetime, windows.Filetime, error) {
			use(h)
			return f.created, f.exited, f.timesErr
		},
		processListed: func(pid uint32) (bool, error) {
			f.lists++
			return slices.Contains(f.listed, pid), f.listErr
		},
		closeHandle: func(h windows.Handle) error {
			use(h)
			f.handles--
			return nil
		},
	}
	t.Cleanup(func() {
		sys = saved
		if f.handles != 0 {
			t.Errorf("%d handles left open", f.handles)
		}
	})
}

const (
	waitAccess  = windows.SYNCHRONIZE | windows.PROCESS_QUERY_LIMITED_INFORMATION
	queryAccess = windows.PROCESS_QUERY_LIMITED_INFORMATION
	fakePID     = 1000 // a multiple of 4, as Windows hands out
	timeout     = uint32(windows.WAIT_TIMEOUT)
)

func TestWindowsProbeInjected(t *testing.T) {
	denied := windows.ERROR_ACCESS_DENIED
	tests := []struct {
		name    string
		pid     int
		f       fakeWindows
		want    State
		wantErr error  // matched with errors.Is when the state is Unknown
		call    string // named in the error when the state is Unknown
	}{
		{name: "running", f: fakeWindows{id: fakePID, event: timeout}, want: Running},
		{name: "exited", f: fakeWindows{id: fakePID, event: windows.WAIT_OBJECT_0}, want: NotFound},
		{name: "exited with STILL_ACTIVE", f: fakeWindows{id: fakePID, event: windows.WAIT_OBJECT_0, exitCode: stillActive}, want: NotFound},
		{name: "no such process", f: fakeWindows{openErr: map[uint32]error{waitAccess: windows.ERROR_INVALID_PARAMETER}}, want: NotFound},
		// Access denied proves nothing (psutil issue 2359): the process
		// list decides.
		{name: "access denied, listed", f: fakeWindows{openErr: map[uint32]error{waitAccess: denied, queryAccess: denied}, listed: []uint32{4, fakePID}}, want: Running},
		{name: "access denied, not listed", f: fakeWindows{openErr: map[uint32]error{waitAccess: denied, queryAccess: denied}, listed: []uint32{4, fakePID + 4}}, want: NotFound},
		{name: "access denied, alias of a listed process", pid: fakePID + 1, f: fakeWindows{openErr: map[uint32]error{waitAccess: denied, queryAccess: denied}, listed: []uint32{fakePID}}, want: NotFound},
		{name: "access denied, process list fails", f: fakeWindows{openErr: map[uint32]error{waitAccess: denied, queryAccess: denied}, listErr: windows.ERROR_NOT_ENOUGH_MEMORY}, wantErr: windows.ERROR_NOT_ENOUGH_MEMORY, call: "process list"},
		{name: "only SYNCHRONIZE denied, running", f: fakeWindows{openErr: map[uint32]error{waitAccess: denied}, id: fakePID, exitCode: stillActive}, want: Running},
		{name: "only SYNCHRONIZE denied, exited", f: fakeWindows{openErr: map[uint32]error{waitAccess: denied}, id: fakePID, exitCode: 1}, want: NotFound},
		// A process may exit with 259, STILL_ACTIVE: its exit time says it has.
		{name: "only SYNCHRONIZE denied, exited with STILL_ACTIVE", f: fakeWindows{openErr: map[uint32]error{waitAccess: denied}, id: fakePID, exitCode: stillActive, exited: windows.Filetime{LowDateTime: 1, HighDateTime: 0x01dc0123}}, want: NotFound},
		{name: "only SYNCHRONIZE denied, GetProcessTimes fails", f: fakeWindows{openErr: map[uint32]error{waitAccess: denied}, id: fakePID, exitCode: stillActive, timesErr: windows.ERROR_INVALID_HANDLE}, wantErr: windows.ERROR_INVALID_HANDLE, call: "GetProcessTimes"},
		{name: "only SYNCHRONIZE denied, alias", pid: fakePID + 2, f: fakeWindows{openErr: map[uint32]error{waitAccess: denied}, id: fakePID, exitCode: stillActive}, want: NotFound},
		{name: "only SYNCHRONIZE denied, gone since", f: fakeWindows{openErr: map[uint32]error{waitAccess: denied, queryAccess: windows.ERROR_INVALID_PARAMETER}}, want: NotFound},
		{name: "alias +1", pid: fakePID + 1, f: fakeWindows{id: fakePID, event: timeout}, want: NotFound},
		{name: "alias +3", pid: fakePID + 3, f: fakeWindows{id: fakePID, event: timeout}, want: NotFound},
		{name: "OpenProcess fails", f: fakeWindows{openErr: map[uint32]error{waitAccess: windows.ERROR_NOT_ENOUGH_MEMORY}}, wantErr: windows.ERROR_NOT_ENOUGH_MEMORY, call: "OpenProcess"},
		{name: "GetProcessId fails", f: fakeWindows{idErr: windows.ERROR_INVALID_HANDLE}, wantErr: windows.ERROR_INVALID_HANDLE, call: "GetProcessId"},
		{name: "WaitForSingleObject fails", f: fakeWindows{id: fakePID, waitErr: windows.ERROR_INVALID_HANDLE}, wantErr: windows.ERROR_INVALID_HANDLE, call: "WaitForSingleObject"},
		{name: "WaitForSingleObject abandoned", f: fakeWindows{id: fakePID, event: 0x80}, call: "WaitForSingleObject"},
		{name: "GetExitCodeProcess fails", f: fakeWindows{openErr: map[uint32]error{waitAccess: denied}, id: fakePID, exitErr: windows.ERROR_INVALID_HANDLE}, wantErr: windows.ERROR_INVALID_HANDLE, call: "GetExitCodeProcess"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pid := tt.pid
			if pid == 0 {
				pid = fakePID
			}
			f := tt.f
			f.install(t)
			s, err := Probe(pid)
			if s != tt.want {
				t.Fatalf("Probe(%d) = %v, %v; want %v", pid, s, err, tt.want)
			}
			if len(f.pids) == 0 || f.pids[0] != uint32(pid) {
				t.Errorf("OpenProcess asked for %v, want %d first", f.pids, pid)
			}
			if len(f.opened) > 0 && f.opened[0] != waitAccess && f.openErr[waitAccess] == nil {
				t.Errorf("first handle opened with access %#x, want %#x", f.opened[0], waitAccess)
			}
			if denied := f.openErr[queryAccess] != nil && errors.Is(f.openErr[queryAccess], windows.ERROR_ACCESS_DENIED); denied != (f.lists > 0) {
				t.Errorf("process list taken %d times; want it exactly when OpenProcess denies all access", f.lists)
			}
			checkErr := Check(pid)
			switch s {
			case Running:
				if err != nil || checkErr != nil {
					t.Errorf("Probe err %v, Check(%d) = %v; want nil", err, pid, checkErr)
				}
			case NotFound:
				if err != nil {
					t.Errorf("Probe err %v, want nil", err)
				}
				wantGone(t, "Check", checkErr)
			case Unknown:
				if err == nil || !strings.Contains(err.Error(), "1000") || !strings.Contains(err.Error(), tt.call) {
					t.Errorf("Probe error %q does not name pid %d and %s", err, pid, tt.call)
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Errorf("Probe error %v does not wrap %v", err, tt.wantErr)
				}
				var pe *ProcessError
				if !errors.As(checkErr, &pe) || pe.State != Unknown || errors.Is(checkErr, os.ErrProcessDone) || errors.Is(checkErr, syscall.ESRCH) {
					t.Errorf("Check(%d) = %v; want an Unknown *ProcessError that is not ErrProcessDone", pid, checkErr)
				}
			}
			// CheckProcess goes through the same probe.
			if err := CheckProcess(&os.Process{Pid: pid}); (err == nil) != (checkErr == nil) {
				t.Errorf("CheckProcess = %v, Check = %v", err, checkErr)
			}
		})
	}
}

func TestWindowsLookupInjected(t *testing.T) {
	created := windows.Filetime{LowDateTime: 0x89abcdef, HighDateTime: 0x01dc0123}
	const start = uint64(0x01dc0123_89abcdef)

	t.Run("found", func(t *testing.T) {
		f := fakeWindows{id: fakePID, created: created, event: timeout}
		f.install(t)
		id, err := Lookup(fakePID)
		if err != nil || id != (Identity{PID: fakePID, StartTime: start}) {
			t.Fatalf("Lookup = %+v, %v; want start %#x and no boot ID", id, err, start)
		}
		if f.opened[0] != queryAccess {
			t.Errorf("Lookup opened with access %#x, want %#x", f.opened[0], queryAccess)
		}
		if s, err := id.Probe(); s != Running || err != nil {
			t.Errorf("Probe = %v, %v; want running", s, err)
		}
		f.created.LowDateTime++ // the PID now names a later process
		if s, err := id.Probe(); s != Reused || err != nil {
			t.Errorf("Probe after reuse = %v, %v; want reused", s, err)
		}
	})
	for _, tt := range []struct {
		name string
		pid  int
		f    fakeWindows
	}{
		{name: "no such process", pid: fakePID, f: fakeWindows{openErr: map[uint32]error{queryAccess: windows.ERROR_INVALID_PARAMETER}}},
		{name: "alias", pid: fakePID + 1, f: fakeWindows{id: fakePID, created: created}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.f.install(t)
			if id, err := Lookup(tt.pid); !errors.Is(err, os.ErrProcessDone) || !errors.Is(err, syscall.ESRCH) {
				t.Errorf("Lookup(%d) = %v, %v; want os.ErrProcessDone", tt.pid, id, err)
			}
			if s, err := (Identity{PID: tt.pid, StartTime: start}).Probe(); s != NotFound || err != nil {
				t.Errorf("Identity.Probe = %v, %v; want not found", s, err)
			}
		})
	}
	for _, tt := range []struct {
		name, call string
		f          fakeWindows
		wantErr    error
	}{
		{name: "access denied", call: "OpenProcess", f: fakeWindows{openErr: map[uint32]error{waitAccess: windows.ERROR_ACCESS_DENIED, queryAccess: windows.ERROR_ACCESS_DENIED}, listed: []uint32{fakePID}}, wantErr: windows.ERROR_ACCESS_DENIED},
		{name: "GetProcessId fails", call: "GetProcessId", f: fakeWindows{idErr: windows.ERROR_INVALID_HANDLE}, wantErr: windows.ERROR_INVALID_HANDLE},
		{name: "GetProcessTimes fails", call: "GetProcessTimes", f: fakeWindows{id: fakePID, event: timeout, timesErr: windows.ERROR_INVALID_HANDLE}, wantErr: windows.ERROR_INVALID_HANDLE},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.f.install(t)
			_, err := Lookup(fakePID)
			if !errors.Is(err, tt.wantErr) || errors.Is(err, os.ErrProcessDone) ||
				!strings.Contains(err.Error(), "1000") || !strings.Contains(err.Error(), tt.call) {
				t.Errorf("Lookup = %v; want an error naming pid %d and %s, wrapping %v", err, fakePID, tt.call, tt.wantErr)
			}
			if s, err := (Identity{PID: fakePID, StartTime: start}).Probe(); s != Unknown || err == nil {
				t.Errorf("Identity.Probe = %v, %v; want unknown", s, err)
			}
		})
	}
}
