// Package safeprobe is a copy vendored into a module's internal directory
// under another directory name, for -safeprobe.
package safeprobe

import "os"

func Alive(pid int) bool { return false }

func Check(pid int) error { return nil }

func CheckProcess(p *os.Process) error { return nil }
