package safeprobe

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"unsafe"

	"golang.org/x/sys/windows"
)

// windowsOS is every Windows API call the probe and the lock make. Tests
// substitute it to reach what Wine does not produce: ERROR_ACCESS_DENIED on
// a protected or another user's process, calls that fail, mandatory locks
// (a read of a range another handle has locked fails with
// ERROR_LOCK_VIOLATION), a dead holder's lock released late, and files
// owned by another user.
type windowsOS struct {
	openProcess         func(access uint32, pid uint32) (windows.Handle, error)
	waitForSingleObject func(h windows.Handle, milliseconds uint32) (event uint32, err error)
	getProcessId        func(h windows.Handle) (uint32, error)
	getExitCodeProcess  func(h windows.Handle) (uint32, error)
	// getProcessTimes returns the creation and exit times; the exit time
	// is zero while the process runs.
	getProcessTimes func(h windows.Handle) (created, exited windows.Filetime, err error)
	// processListed reports whether the system's process list (a
	// Toolhelp snapshot) has a process with exactly this PID.
	processListed func(pid uint32) (bool, error)
	closeHandle   func(h windows.Handle) error

	// The lock.
	// createFile is CreateFile; sd, if not nil, is the security
	// descriptor of a file it creates.
	createFile   func(path string, access, share, disposition, flags uint32, sd *windows.SECURITY_DESCRIPTOR) (windows.Handle, error)
	fileInfo     func(h windows.Handle) (windows.ByHandleFileInformation, error)
	fileType     func(h windows.Handle) (uint32, error)
	lockFileEx   func(h windows.Handle, flags uint32, off uint64, n uint32) error
	unlockFileEx func(h windows.Handle, off uint64, n uint32) error
	readAt       func(h windows.Handle, b []byte, off int64) (int, error)
	writeAt      func(h windows.Handle, b []byte, off int64) (int, error)
	truncate     func(h windows.Handle, size int64) error
	flush        func(h windows.Handle) error
	// markDeleted removes the file when h closes (at once with POSIX
	// semantics where the file system has them).
	markDeleted func(h windows.Handle) error
	// fileOwner is the owner SID of h's file or directory.
	fileOwner func(h windows.Handle) (*windows.SID, error)
	// fileDACL is a security descriptor holding the DACL of h's file or
	// directory.
	fileDACL func(h windows.Handle) (*windows.SECURITY_DESCRIPTOR, error)
	// createDirectory is CreateDirectory with the security descriptor sd.
	createDirectory func(path string, sd *windows.SECURITY_DESCRIPTOR) error
	// finalPath is GetFinalPathNameByHandle of h, normalized, with the
	// volume's DOS name (\\?\C:\dir\file).
	finalPath func(h windows.Handle) (string, error)
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
	getProcessTimes: func(h windows.Handle) (created, exited windows.Filetime, err error) {
		var kernel, user windows.Filetime
		err = windows.GetProcessTimes(h, &created, &exited, &kernel, &user)
		return created, exited, err
	},
	processListed: processListed,
	closeHandle:   windows.CloseHandle,

	createFile: func(path string, access, share, disposition, flags uint32, sd *windows.SECURITY_DESCRIPTOR) (windows.Handle, error) {
		p, err := windows.UTF16PtrFromString(path)
		if err != nil {
			return windows.InvalidHandle, err
		}
		sa := securityAttributes(sd)
		// A file whose removal is pending fails to open with access
		// denied; only the NT status tells it from a real denial, and it
		// must be read on the same thread.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		h, err := windows.CreateFile(p, access, share, sa, disposition, flags, 0)
		if errors.Is(err, windows.ERROR_ACCESS_DENIED) && lastNtStatus() == windows.STATUS_DELETE_PENDING {
			err = windows.ERROR_DELETE_PENDING
		}
		return h, err
	},
	fileInfo: func(h windows.Handle) (windows.ByHandleFileInformation, error) {
		var fi windows.ByHandleFileInformation
		err := windows.GetFileInformationByHandle(h, &fi)
		return fi, err
	},
	fileType: windows.GetFileType,
	lockFileEx: func(h windows.Handle, flags uint32, off uint64, n uint32) error {
		ol := overlappedAt(off)
		return windows.LockFileEx(h, flags, 0, n, 0, &ol)
	},
	unlockFileEx: func(h windows.Handle, off uint64, n uint32) error {
		ol := overlappedAt(off)
		return windows.UnlockFileEx(h, 0, n, 0, &ol)
	},
	readAt: func(h windows.Handle, b []byte, off int64) (int, error) {
		var done uint32
		ol := overlappedAt(uint64(off))
		err := windows.ReadFile(h, b, &done, &ol)
		if errors.Is(err, windows.ERROR_HANDLE_EOF) {
			err = io.EOF
		}
		return int(done), err
	},
	writeAt: func(h windows.Handle, b []byte, off int64) (int, error) {
		var done uint32
		ol := overlappedAt(uint64(off))
		err := windows.WriteFile(h, b, &done, &ol)
		return int(done), err
	},
	truncate: func(h windows.Handle, size int64) error {
		return windows.SetFileInformationByHandle(h, windows.FileEndOfFileInfo,
			(*byte)(unsafe.Pointer(&size)), uint32(unsafe.Sizeof(size)))
	},
	flush: windows.FlushFileBuffers,
	markDeleted: func(h windows.Handle) error {
		ex := uint32(windows.FILE_DISPOSITION_DELETE | windows.FILE_DISPOSITION_POSIX_SEMANTICS)
		err := windows.SetFileInformationByHandle(h, windows.FileDispositionInfoEx,
			(*byte)(unsafe.Pointer(&ex)), uint32(unsafe.Sizeof(ex)))
		if err != nil { // no POSIX semantics: removed when the last handle closes
			del := byte(1) // FILE_DISPOSITION_INFO.DeleteFile, a BOOLEAN
			err = windows.SetFileInformationByHandle(h, windows.FileDispositionInfo, &del, 1)
		}
		return err
	},
	fileOwner: func(h windows.Handle) (*windows.SID, error) {
		sd, err := windows.GetSecurityInfo(h, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
		if err != nil {
			return nil, err
		}
		owner, _, err := sd.Owner()
		if err == nil && owner == nil {
			err = errors.New("no owner")
		}
		return owner, err
	},
	fileDACL: func(h windows.Handle) (*windows.SECURITY_DESCRIPTOR, error) {
		return windows.GetSecurityInfo(h, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	},
	createDirectory: func(path string, sd *windows.SECURITY_DESCRIPTOR) error {
		p, err := windows.UTF16PtrFromString(path)
		if err != nil {
			return err
		}
		return windows.CreateDirectory(p, securityAttributes(sd))
	},
	finalPath: func(h windows.Handle) (string, error) {
		buf := make([]uint16, windows.MAX_PATH)
		for {
			n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), 0)
			if err != nil {
				return "", err
			}
			if int(n) < len(buf) {
				return windows.UTF16ToString(buf[:n]), nil
			}
			buf = make([]uint16, n+1) // n is the size needed
		}
	},
}

// securityAttributes holds sd, or is nil for a nil sd.
func securityAttributes(sd *windows.SECURITY_DESCRIPTOR) *windows.SecurityAttributes {
	if sd == nil {
		return nil
	}
	sa := &windows.SecurityAttributes{SecurityDescriptor: sd}
	sa.Length = uint32(unsafe.Sizeof(*sa))
	return sa
}

// processListed walks a Toolhelp snapshot of the system's processes.
func processListed(pid uint32) (bool, error) {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return false, fmt.Errorf("CreateToolhelp32Snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	e := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		if e.ProcessID == pid {
			return true, nil
		}
	}
	if errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return false, nil
	}
	return false, fmt.Errorf("Process32Next: %w", err)
}

var procRtlGetLastNtStatus = windows.NewLazySystemDLL("ntdll.dll").NewProc("RtlGetLastNtStatus")

// lastNtStatus is the NT status of the calling thread's last failed call.
func lastNtStatus() windows.NTStatus {
	if procRtlGetLastNtStatus.Find() != nil {
		return 0
	}
	r, _, _ := procRtlGetLastNtStatus.Call()
	return windows.NTStatus(r)
}

func overlappedAt(off uint64) windows.Overlapped {
	return windows.Overlapped{Offset: uint32(off), OffsetHigh: uint32(off >> 32)}
}
