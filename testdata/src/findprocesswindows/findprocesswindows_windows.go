package findprocesswindows

import "os"

// FindProcess fails with ACCESS_DENIED for a live elevated process and
// succeeds for an exited one whose handle is still open.
func exists(pid int) bool {
	_, err := os.FindProcess(pid) // want `PL003: os.FindProcess as a liveness test is wrong on windows \(where this code builds\): it fails with ACCESS_DENIED for a live elevated or other user's process \(read as dead\) and succeeds for an exited process whose handle some process still holds \(read as alive\); use safeprobe.Check or safeprobe.Alive`
	return err == nil
}

func found(pid int) bool {
	p, _ := os.FindProcess(pid) // want `PL003: os.FindProcess as a liveness test is wrong on windows`
	return p != nil
}

// Not liveness tests: the process is then waited for or killed.

func reap(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	_, err = p.Wait()
	return err
}

func stop(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
