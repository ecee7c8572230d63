package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"unsafe"

	"github.com/pidlint/pidlint/safeprobe"
	"golang.org/x/sys/windows"
)

// Windows has no exec: safeprobe stays as the parent that holds the lock,
// and the record names it. The record's program says so: "safeprobe:
// app.exe".
func holderProgram(path string) string { return "safeprobe: " + programName(path) }

// runHolding runs CMD as a child holding the lock until it exits, and
// returns its exit code:
//
//   - CMD leads a console process group of its own
//     (CREATE_NEW_PROCESS_GROUP), so that a Ctrl+Break can be sent to it,
//     and its descendants, and to nothing else on the console: the Ctrl+C
//     and Ctrl+Break this process gets are forwarded to it as Ctrl+Break
//     (Windows delivers no Ctrl+C to another process group), and so is
//     safeprobe stop's;
//   - this process, and so CMD and everything CMD starts, is in a job
//     object that kills its processes when its last handle closes: when
//     this process dies, however it dies (safeprobe stop -kill terminates
//     it), the lock is released and CMD is ended with it, so CMD never runs
//     without the lock.
func runHolding(l *safeprobe.Lock, o runOptions, stderr io.Writer) int {
	defer func() {
		if err := l.Release(); err != nil {
			fmt.Fprintf(stderr, "safeprobe run: %v\n", err)
		}
	}()
	// The job's handle stays open until this process exits: that is what
	// ends the job.
	if _, err := killOnCloseJob(); err != nil {
		// Windows 7 does not nest jobs: CMD then outlives a killed parent.
		fmt.Fprintf(stderr, "safeprobe run: warning: %v: %s may outlive this process, and run without the lock\n", err, o.argv[0])
	}
	cmd := exec.Command(o.path, o.argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
	signals := make(chan os.Signal, 4)
	// Ctrl+C and Ctrl+Break arrive as os.Interrupt; closing the console,
	// logging off and shutting down as SIGTERM.
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "safeprobe run: %v\n", err)
		if errors.Is(err, os.ErrNotExist) {
			return runNotFound
		}
		return runCannotExec
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-signals:
				// The group's ID is its leader's PID, which cannot name
				// another process while cmd holds the child's handle.
				_ = windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(cmd.Process.Pid))
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	if cmd.ProcessState != nil {
		return cmd.ProcessState.ExitCode()
	}
	fmt.Fprintf(stderr, "safeprobe run: %v\n", err)
	return runFailed
}

// killOnCloseJob puts this process into a new job object that kills its
// processes when its last handle, which this process keeps, is closed;
// the children this process starts afterwards are in it too.
func killOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("CreateJobObject: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("SetInformationJobObject: %w", err)
	}
	if err := windows.AssignProcessToJobObject(job, windows.CurrentProcess()); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("AssignProcessToJobObject: %w", err)
	}
	return job, nil
}
