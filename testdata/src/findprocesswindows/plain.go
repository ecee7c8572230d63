package findprocesswindows

import "os"

// A file for every OS: the windows build reports the message the others
// do, so the builds' findings merge into one.
func existsAnywhere(pid int) bool {
	_, err := os.FindProcess(pid) // want `PL003: os.FindProcess never fails on any OS but windows \(where this code builds\): every PID reads as alive; on windows it fails with ACCESS_DENIED for a live elevated or other user's process \(read as dead\) and succeeds for an exited process whose handle some process still holds \(read as alive\); use safeprobe.Check or safeprobe.Alive`
	return err == nil
}
