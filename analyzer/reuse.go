package analyzer

import (
	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

// Since Go 1.23, on Linux 5.3 and later, os.FindProcess and StartProcess
// give a Process that holds a pidfd (os/pidfd_linux.go): its Signal cannot
// reach a process that took the PID later. A PID reused before the Process
// was found is still taken for the process, and a Process without a pidfd
// (an older kernel, other OSes, a go line before 1.23, whose toolchain may
// predate it) is a bare PID.

// misreads is the middle of a Signal(0) verdict's message: what it reads
// wrongly on unix, the Unix OSes the code builds for, given the go line of
// the file.
func misreads(s *site, unix goos.Set) string {
	linux := unix & (goos.Of("linux") | goos.Of("android"))
	if linux == 0 || !goAtLeast(s.r.pass, s.fs.file, "go1.23") {
		return "reads EPERM (another user's process) as dead and a zombie or reused PID as alive on " + goos.Describe(unix) + " (where this code builds)"
	}
	msg := "reads EPERM (another user's process) as dead and a zombie as alive on " + goos.Describe(unix) + " (where this code builds), and a reused PID as alive"
	switch rest := unix &^ linux; {
	case unix&goos.Ports == goos.Unix&goos.Ports:
		msg += " on every other Unix and"
	case rest&goos.Ports != 0:
		msg += " on " + goos.Describe(rest) + " and"
	}
	return msg + " on linux when the PID was reused before the Process was found or the kernel predates 5.3 (from Go 1.23 a Process holds a pidfd there)"
}
