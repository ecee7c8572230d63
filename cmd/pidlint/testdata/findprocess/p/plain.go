// Package p decides liveness with os.FindProcess in a file for every OS
// and in one for windows.
package p

import "os"

// Exists reports whether pid names a process.
func Exists(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
