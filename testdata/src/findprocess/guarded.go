package findprocess

import (
	"os"
	"runtime"
)

func existsGuarded(pid int) bool {
	if runtime.GOOS == "windows" {
		_, err := os.FindProcess(pid) // want `PL003: os.FindProcess as a liveness test is wrong on windows \(where this code builds\): it fails with ACCESS_DENIED`
		return err == nil
	}
	return false
}

// A runtime.GOOS test narrows the message without a build constraint.
func existsDarwin(pid int) bool {
	if runtime.GOOS == "darwin" {
		_, err := os.FindProcess(pid) // want `PL003: os.FindProcess never fails on darwin \(where this code builds\)`
		return err == nil
	}
	return false
}
