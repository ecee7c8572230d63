package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// A console Ctrl+Break reaches a process group: GenerateConsoleCtrlEvent
// with a group's ID (its leader's PID) reaches that group's processes on
// the caller's console. With the PID of a process that leads no group it
// reaches every process on the console instead (microsoft/terminal issue
// 335), the caller's shell too. So stop sends it only to the command that
// safeprobe run started, which leads a group of its own: the holder must
// be safeprobe (its image has this program's name), and the group is its
// one running child started after it.

// consoleBreakVerb is the internal verb of the helper that sends the
// event: it attaches to the holder's console, which this process may not
// share, and a process has one console at a time.
const consoleBreakVerb = "__console-break"

func init() { internalVerbs[consoleBreakVerb] = consoleBreakHelper }

// helperTimeout bounds the helper's run: attaching to a console and
// sending the event take milliseconds.
const helperTimeout = 5 * time.Second

// Exit codes of the helper.
const (
	helperSent     = 0
	helperUsage    = 2
	helperNoAttach = 3
	helperFailed   = 4
)

var (
	kernel32                  = windows.NewLazySystemDLL("kernel32.dll")
	procAttachConsole         = kernel32.NewProc("AttachConsole")
	procFreeConsole           = kernel32.NewProc("FreeConsole")
	procSetConsoleCtrlHandler = kernel32.NewProc("SetConsoleCtrlHandler")
)

// breakRunChild sends a console Ctrl+Break to the process group that
// safeprobe run, as process pid (which started at start, a FILETIME),
// started its command in. pid is verified, and cannot name another process
// meanwhile (safeprobe.WithOwnerProcess).
func breakRunChild(pid int, start uint64) error {
	if err := isThisProgram(pid); err != nil {
		return err
	}
	child, h, err := runChild(pid, start)
	if err != nil {
		return err
	}
	// The child's handle keeps its PID, the group's ID, from being reused.
	defer windows.CloseHandle(h)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), helperTimeout)
	defer cancel()
	helper := exec.CommandContext(ctx, self, consoleBreakVerb, strconv.Itoa(pid), strconv.Itoa(child))
	helper.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS}
	err = helper.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("%w: no Ctrl+Break sent to pid %d's process group %d within %v", errNoGentleStop, pid, child, helperTimeout)
	case errors.As(err, &exit) && exit.ExitCode() == helperNoAttach:
		return fmt.Errorf("%w: pid %d has no console to send a Ctrl+Break through (started detached?)", errNoGentleStop, pid)
	}
	return fmt.Errorf("sending Ctrl+Break to process group %d: %v", child, err)
}

// isThisProgram refuses a holder that is not safeprobe run: its image must
// have this program's file name.
func isThisProgram(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return fmt.Errorf("opening pid %d: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n := uint32(len(buf))
	if err := windows.QueryFullProcessImageName(h, 0, &buf[0], &n); err != nil {
		return fmt.Errorf("image of pid %d: %w", pid, err)
	}
	image := windows.UTF16ToString(buf[:n])
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if !strings.EqualFold(filepath.Base(image), filepath.Base(self)) {
		return fmt.Errorf("%w: pid %d runs %s, not safeprobe run, and leads no process group a Ctrl+Break could be limited to",
			errNoGentleStop, pid, filepath.Base(image))
	}
	return nil
}

// runChild finds the one running child of pid started after it (at or
// after start), the console host aside: the process list names each process's parent by PID, and
// a process whose parent's PID was reused names pid too, but started
// earlier. It returns the child's PID and a handle that keeps it.
func runChild(pid int, start uint64) (int, windows.Handle, error) {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return 0, 0, fmt.Errorf("process list: %w", err)
	}
	defer windows.CloseHandle(snap)
	var (
		found  []int
		handle windows.Handle
	)
	e := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		if e.ParentProcessID != uint32(pid) || e.ProcessID == uint32(pid) ||
			strings.EqualFold(windows.UTF16ToString(e.ExeFile[:]), "conhost.exe") {
			// conhost.exe hosts the console of a process that got a new
			// one, as its child: not the command.
			continue
		}
		h, ok := runningSince(e.ProcessID, start)
		if !ok {
			continue
		}
		found = append(found, int(e.ProcessID))
		if handle != 0 {
			windows.CloseHandle(handle)
		}
		handle = h
	}
	switch len(found) {
	case 1:
		return found[0], handle, nil
	case 0:
		return 0, 0, fmt.Errorf("%w: pid %d runs no command (it has no running child)", errNoGentleStop, pid)
	}
	windows.CloseHandle(handle)
	return 0, 0, fmt.Errorf("%w: pid %d has %d running children %v; safeprobe run starts one", errNoGentleStop, pid, len(found), found)
}

// runningSince opens process pid if it runs and started at or after
// start.
func runningSince(pid uint32, start uint64) (windows.Handle, bool) {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return 0, false
	}
	var created, exited, kernel, user windows.Filetime
	if windows.GetProcessTimes(h, &created, &exited, &kernel, &user) != nil ||
		uint64(created.HighDateTime)<<32|uint64(created.LowDateTime) < start {
		windows.CloseHandle(h)
		return 0, false
	}
	if ev, err := windows.WaitForSingleObject(h, 0); err != nil || ev != uint32(windows.WAIT_TIMEOUT) {
		windows.CloseHandle(h)
		return 0, false
	}
	return h, true
}

// consoleBreakHelper is the helper: started detached (no console), it
// attaches to the console of process args[0] and sends a Ctrl+Break to
// process group args[1]. Its caller holds handles that keep both PIDs.
func consoleBreakHelper(args []string) int {
	if len(args) != 2 {
		return helperUsage
	}
	holder, err1 := strconv.ParseUint(args[0], 10, 32)
	group, err2 := strconv.ParseUint(args[1], 10, 32)
	if err1 != nil || err2 != nil || holder == 0 || group == 0 {
		return helperUsage
	}
	procFreeConsole.Call()
	if r, _, _ := procAttachConsole.Call(uintptr(holder)); r == 0 {
		return helperNoAttach
	}
	// The event is for the group only; should it reach this process
	// anyway, it must not end it before the call returns.
	procSetConsoleCtrlHandler.Call(0, 1)
	if err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(group)); err != nil {
		return helperFailed
	}
	return helperSent
}
