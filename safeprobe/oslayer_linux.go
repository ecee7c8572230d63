package safeprobe

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// linuxOS is every system call the Linux probe makes. Tests substitute it to
// reach what a test machine cannot produce (no pidfds, no procfs, hidepid)
// and to prove which PIDs a probe ever signals.
type linuxOS struct {
	pidfdOpen func(pid int) (fd int, err error)
	pollIn    func(fd int) (readable bool, err error)
	closeFD   func(fd int) error
	kill      func(pid int, sig syscall.Signal) error
	tgkill    func(tgid, tid int, sig syscall.Signal) error
	// pidfdSendSignal signals the process a pidfd names.
	pidfdSendSignal func(fd int, sig syscall.Signal) error
	// readFile reads a small file into buf, returning the bytes read.
	readFile func(name string, buf []byte) (int, error)
}

var sys = linuxOS{
	pidfdOpen: func(pid int) (int, error) { return unix.PidfdOpen(pid, 0) },
	pollIn: func(fd int) (bool, error) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, 0)
			if err == unix.EINTR {
				continue
			}
			return n > 0 && fds[0].Revents&unix.POLLIN != 0, err
		}
	},
	closeFD: unix.Close,
	kill:    syscall.Kill,
	tgkill:  func(tgid, tid int, sig syscall.Signal) error { return unix.Tgkill(tgid, tid, sig) },
	pidfdSendSignal: func(fd int, sig syscall.Signal) error {
		return unix.PidfdSendSignal(fd, sig, nil, 0)
	},
	readFile: readSmallFile,
}
