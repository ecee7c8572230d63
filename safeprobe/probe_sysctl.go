//go:build darwin || freebsd

package safeprobe

import "errors"

// probe is kill(pid, 0) for existence, where EPERM means the process exists,
// and the kernel's kinfo_proc for the zombie state. macOS has no procfs and
// FreeBSD does not mount it by default. A process the kernel hides from
// the caller (FreeBSD's security.bsd.see_other_uids=0) is ESRCH to kill(2),
// and so NotFound.
//
//	no process: NotFound
//	EPERM:      Running
//	zombie:     Zombie: kinfo_proc's state is SZOMB
//	thread ID:  probed as the PID it equals (FreeBSD's thread IDs, above PID_MAX, are NotFound)
func probe(pid int) (State, error) {
	if s, err := killState(pid, sys.kill(pid, 0)); s != Running {
		return s, err
	}
	info, err := sys.procInfo(pid)
	switch {
	case errors.Is(err, errNoProcess):
		return NotFound, nil // exited since kill
	case err != nil:
		return Running, nil // kill proved it exists; only the zombie check is lost
	case info.zombie:
		return Zombie, nil
	}
	return Running, nil
}
