package safeprobe

import (
	"fmt"

	"golang.org/x/sys/unix"
)

const darwinSZOMB = 5 // p_stat of a zombie, <sys/proc.h>

// readKinfo reads the kinfo_proc of the process from sysctl kern.proc.pid.
//
//	no process: errNoProcess: x/sys reports the empty answer as EIO
//	EPERM:      its kinfo: kern.proc.pid is anyone's to read
//	zombie:     its kinfo, zombie (p_stat SZOMB)
//	thread ID:  errNoProcess unless the number is a PID: thread IDs are numbered apart
func readKinfo(pid int) (kinfo, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	switch {
	case err == unix.EIO || err == unix.ESRCH:
		// x/sys reports the empty answer for a PID no process has as EIO.
		return kinfo{}, errNoProcess
	case err != nil:
		return kinfo{}, fmt.Errorf("safeprobe: sysctl kern.proc.pid.%d: %w", pid, err)
	case int(k.Proc.P_pid) != pid:
		return kinfo{}, errNoProcess
	}
	st := k.Proc.P_starttime
	return kinfo{
		zombie: k.Proc.P_stat == darwinSZOMB,
		start:  timevalMicros(int64(st.Sec), int64(st.Usec)),
		uid:    k.Eproc.Ucred.Uid,
	}, nil
}
