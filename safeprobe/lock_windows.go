package safeprobe

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// The Windows lock is LockFileEx on one byte at offset lockOffset, far past
// any record. Windows byte-range locks are mandatory: a lock on byte 0 would
// make the record unreadable to everyone but the holder. The lock belongs to
// the handle; the handle is not inheritable, so a child the holder starts
// never keeps it. Every handle shares read, write and delete access, so
// readers and the holder's Release never meet a sharing violation.

// lockOffset is the byte LockFileEx locks.
const lockOffset = 1 << 20

// staleReleaseWait is how long TryAcquire keeps trying a lock whose
// recorded holder is gone: Windows releases a dead process's locks when it
// closes its handles, which can lag behind the exit.
const staleReleaseWait = 2 * time.Second

// deletePendingWait is how long openLockFile retries a file whose removal
// is pending (Release marked it, but a waiter still has it open; without
// POSIX delete semantics the name stays until the last handle closes).
// After that it reports ErrLocked, so Acquire waits on.
const deletePendingWait = 200 * time.Millisecond

// fileKey names a file: volume serial number and file index.
type fileKey struct{ volume, indexHigh, indexLow uint32 }

const shareAll = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE

type winLockFile struct {
	h    windows.Handle
	k    fileKey
	path string
}

// openLockFileAt opens the lock file p: for writing (creating it if
// missing) when write is set, read-only otherwise. mode is not used: the
// file gets its directory's inherited ACL. It refuses, before opening and
// again on the handle, anything but a regular file with one link: a
// symbolic link or junction (opened as itself, never followed), a
// directory, a pipe or device. Windows opens by the whole path (see
// openLockDir).
func openLockFileAt(p lockPath, write bool, mode os.FileMode) (lockFile, error) {
	path := p.path
	if fi, err := os.Lstat(path); err == nil {
		if err := checkLockMode(fi.Mode()); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	access, disposition := uint32(windows.GENERIC_READ), uint32(windows.OPEN_EXISTING)
	if write {
		access |= windows.GENERIC_WRITE
		disposition = windows.OPEN_ALWAYS
	}
	flags := uint32(windows.FILE_ATTRIBUTE_NORMAL | windows.FILE_FLAG_OPEN_REPARSE_POINT)
	deadline := time.Now().Add(deletePendingWait)
	var h windows.Handle
	var err error
	for {
		h, err = sys.createFile(path, access, shareAll, disposition, flags)
		if !errors.Is(err, windows.ERROR_DELETE_PENDING) || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if errors.Is(err, windows.ERROR_DELETE_PENDING) {
		return nil, fmt.Errorf("%w: the file is being removed: %w", ErrLocked, &fs.PathError{Op: "CreateFile", Path: path, Err: err})
	}
	if err != nil {
		return nil, &fs.PathError{Op: "CreateFile", Path: path, Err: err}
	}
	k, err := checkLockHandle(h, path)
	if err != nil {
		sys.closeHandle(h)
		return nil, err
	}
	return &winLockFile{h: h, k: k, path: path}, nil
}

// checkLockMode refuses what os.Lstat shows is not a regular file.
func checkLockMode(m fs.FileMode) error {
	switch {
	case m&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: a symbolic link", ErrUnsafePath)
	case m.IsDir():
		return fmt.Errorf("%w: a directory", ErrUnsafePath)
	case !m.IsRegular():
		return fmt.Errorf("%w: not a regular file (%v)", ErrUnsafePath, m.Type())
	}
	return nil
}

// checkLockHandle refuses an open handle that is not a regular disk file
// with one link, and returns the file's key.
func checkLockHandle(h windows.Handle, path string) (fileKey, error) {
	t, err := sys.fileType(h)
	if err != nil {
		return fileKey{}, &fs.PathError{Op: "GetFileType", Path: path, Err: err}
	}
	if t != windows.FILE_TYPE_DISK {
		return fileKey{}, fmt.Errorf("%w: not a disk file (type %d)", ErrUnsafePath, t)
	}
	fi, k, err := handleFile(h, path)
	if err != nil {
		return fileKey{}, err
	}
	switch {
	case fi.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		return fileKey{}, fmt.Errorf("%w: a symbolic link or junction", ErrUnsafePath)
	case fi.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		return fileKey{}, fmt.Errorf("%w: a directory", ErrUnsafePath)
	case fi.NumberOfLinks > 1:
		return fileKey{}, fmt.Errorf("%w: has %d hard links", ErrUnsafePath, fi.NumberOfLinks)
	}
	return k, nil
}

// handleFile returns what h's file is and its key.
func handleFile(h windows.Handle, path string) (windows.ByHandleFileInformation, fileKey, error) {
	fi, err := sys.fileInfo(h)
	if err != nil {
		return fi, fileKey{}, &fs.PathError{Op: "GetFileInformationByHandle", Path: path, Err: err}
	}
	return fi, fileKey{fi.VolumeSerialNumber, fi.FileIndexHigh, fi.FileIndexLow}, nil
}

func (f *winLockFile) key() fileKey { return f.k }

// fileOwner is a file's owner. Windows guards files with ACLs, not the
// owner IDs Unix checks, and safeprobe does not read a file's owner SID
// yet: every file has the same owner, whom trustedOwner and ownerRuns
// accept.
type fileOwner struct{}

func (f *winLockFile) owner() fileOwner { return fileOwner{} }

func trustedOwner(fileOwner, string) error { return nil }
func ownerRuns(int, fileOwner) error       { return nil }

func (f *winLockFile) tryLock() error {
	return f.lock(windows.LOCKFILE_EXCLUSIVE_LOCK | windows.LOCKFILE_FAIL_IMMEDIATELY)
}

func (f *winLockFile) probeHeld() (bool, error) {
	switch err := f.lock(windows.LOCKFILE_FAIL_IMMEDIATELY); {
	case errors.Is(err, errWouldBlock):
		return true, nil
	case err != nil:
		return false, err
	}
	return false, f.unlock()
}

func (f *winLockFile) lock(flags uint32) error {
	err := sys.lockFileEx(f.h, flags, lockOffset, 1)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return errWouldBlock
	}
	return &fs.PathError{Op: "LockFileEx", Path: f.path, Err: err}
}

func (f *winLockFile) unlock() error {
	if err := sys.unlockFileEx(f.h, lockOffset, 1); err != nil {
		return &fs.PathError{Op: "UnlockFileEx", Path: f.path, Err: err}
	}
	return nil
}

func (f *winLockFile) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) {
		m, err := sys.readAt(f.h, b[n:], off+int64(n))
		n += m
		if err != nil {
			return n, err
		}
		if m == 0 {
			return n, io.EOF
		}
	}
	return n, nil
}

func (f *winLockFile) WriteAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) {
		m, err := sys.writeAt(f.h, b[n:], off+int64(n))
		n += m
		if err != nil {
			return n, &fs.PathError{Op: "WriteFile", Path: f.path, Err: err}
		}
		if m == 0 {
			return n, io.ErrShortWrite
		}
	}
	return n, nil
}

func (f *winLockFile) Truncate(size int64) error {
	if err := sys.truncate(f.h, size); err != nil {
		return &fs.PathError{Op: "SetFileInformationByHandle", Path: f.path, Err: err}
	}
	return nil
}

func (f *winLockFile) Sync() error {
	if err := sys.flush(f.h); err != nil {
		return &fs.PathError{Op: "FlushFileBuffers", Path: f.path, Err: err}
	}
	return nil
}

func (f *winLockFile) Close() error {
	return sys.closeHandle(f.h)
}

// pathKey names the file p names, not following a reparse point.
func pathKey(p lockPath) (fileKey, error) {
	path := p.path
	h, err := sys.createFile(path, 0, shareAll, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS)
	if err != nil {
		return fileKey{}, &fs.PathError{Op: "CreateFile", Path: path, Err: err}
	}
	defer sys.closeHandle(h)
	_, k, err := handleFile(h, path)
	return k, err
}

// removeLockFile marks the file at path for deletion through a handle of
// its own, after checking that handle's file is f's. A reader that opened
// the file without sharing delete access makes this fail with a sharing
// violation; the file is then left, which is harmless.
func removeLockFile(f lockFile, p lockPath) error {
	path := p.path
	h, err := sys.createFile(path, windows.DELETE, shareAll, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT)
	if errors.Is(err, windows.ERROR_SHARING_VIOLATION) {
		return nil
	}
	if err != nil {
		return &fs.PathError{Op: "CreateFile", Path: path, Err: err}
	}
	defer sys.closeHandle(h)
	if _, k, err := handleFile(h, path); err != nil || k != f.key() {
		return err
	}
	if err := sys.markDeleted(h); err != nil {
		return &fs.PathError{Op: "SetFileInformationByHandle", Path: path, Err: err}
	}
	return nil
}

// dirLinked is not asked: openLockDir keeps no directory open.
func dirLinked(*os.File) bool { return true }

func removeName(p lockPath) error        { return os.Remove(p.path) }
func renameName(from, to lockPath) error { return os.Rename(from.path, to.path) }
func linkName(from, to lockPath) error   { return os.Link(from.path, to.path) }

// openLockDir accepts any directory NewLockDir's checks passed, and keeps
// none open: Windows guards it with ACLs, not the mode bits os.Lstat
// synthesizes, and lock files are opened by their whole path.
func openLockDir(dir string) (*os.File, error) { return nil, nil }
