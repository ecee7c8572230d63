package p

import "os"

// Running reports whether pid names a process.
func Running(pid int) bool {
	p, _ := os.FindProcess(pid)
	return p != nil
}

// Reap waits for pid: not a liveness test.
func Reap(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	_, err = p.Wait()
	return err
}
