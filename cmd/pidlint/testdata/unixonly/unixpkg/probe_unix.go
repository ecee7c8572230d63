// Package unixpkg does not build for windows: "_unix" is no file-name
// constraint, but stop.go calls syscall.Kill.
package unixpkg

import (
	"os"
	"syscall"
)

func Alive(p *os.Process) bool {
	return p.Signal(syscall.Signal(0)) == nil
}
