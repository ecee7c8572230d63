//go:build unix

// Package procstatunix probes /proc/<pid> in a file for every Unix: the
// message names the Unixes without /proc/<pid>, not solaris, illumos or
// aix, which have it.
package procstatunix

import (
	"fmt"
	"os"
)

func alive(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid)) // want `PL004: /proc/<pid> is not there on darwin, dragonfly, freebsd, netbsd and openbsd \(where this code builds\): every process reads as dead; on linux it exists for zombies and thread IDs; use safeprobe.Alive`
	return err == nil
}
