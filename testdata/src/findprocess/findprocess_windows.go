package findprocess

import "os"

// On Windows FindProcess does fail for a PID that does not exist.
func existsWindows(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
