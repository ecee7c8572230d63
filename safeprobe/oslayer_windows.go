package safeprobe

import "golang.org/x/sys/windows"

// windowsOS is every Windows API call the probe makes. Tests substitute it
// to reach what Wine does not produce: ERROR_ACCESS_DENIED on a protected or
// another user's process, and calls that fail.
type windowsOS struct {
	openProcess         func(access uint32, pid uint32) (windows.Handle, error)
	waitForSingleObject func(h windows.Handle, milliseconds uint32) (event uint32, err error)
	getProcessId        func(h windows.Handle) (uint32, error)
	getExitCodeProcess  func(h windows.Handle) (uint32, error)
	// getProcessTimes returns the creation time: the only time used.
	getProcessTimes func(h windows.Handle) (windows.Filetime, error)
	closeHandle     func(h windows.Handle) error
}

var sys = windowsOS{
	openProcess: func(access, pid uint32) (windows.Handle, error) {
		return windows.OpenProcess(access, false, pid)
	},
	waitForSingleObject: windows.WaitForSingleObject,
	getProcessId:        windows.GetProcessId,
	getExitCodeProcess: func(h windows.Handle) (uint32, error) {
		var code uint32
		err := windows.GetExitCodeProcess(h, &code)
		return code, err
	},
	getProcessTimes: func(h windows.Handle) (windows.Filetime, error) {
		var creation, exit, kernel, user windows.Filetime
		err := windows.GetProcessTimes(h, &creation, &exit, &kernel, &user)
		return creation, err
	},
	closeHandle: windows.CloseHandle,
}
