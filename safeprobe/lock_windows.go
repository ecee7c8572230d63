package safeprobe

import (
	"context"
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
// never keeps it.
//
// Share modes keep a held file the holder's: everyone opens the file for
// reading only, sharing read, write and delete, and takes the lock on that
// handle (LockFileEx needs no more). The holder then opens the file again
// for writing, sharing read only, and writes its record through that
// handle: from then on, until it releases, no one can open the file to
// write, remove or rename it, while readers (Inspect, and any program that
// opens it for reading and shares write access, as os.Open does) and
// would-be holders still open it. The holder does not ask for delete
// access until Release, because a reader that does not share delete
// access (os.Open does not) could then not open the file.
//
// Whose files are believed is lockowner_windows.go's concern.

// lockOffset is the byte LockFileEx locks.
const lockOffset = 1 << 20

// staleReleaseWait is how long TryAcquire keeps trying a lock whose
// recorded holder is gone: Windows releases a dead process's locks when it
// closes its handles, which can lag behind the exit.
const staleReleaseWait = 2 * time.Second

// closeUnlocks: Windows drops a closed handle's byte-range locks "in time",
// not at once: Release unlocks first.
const closeUnlocks = false

// deletePendingWait is how long openLockFile retries a file whose removal
// is pending (Release marked it, but a waiter still has it open; without
// POSIX delete semantics the name stays until the last handle closes).
// After that it reports ErrLocked, so Acquire waits on.
const deletePendingWait = 200 * time.Millisecond

// fileKey names a file: volume serial number and file index.
type fileKey struct{ volume, indexHigh, indexLow uint32 }

const shareAll = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE

type winLockFile struct {
	h    windows.Handle // read-only, sharing all: the lock is taken on it
	w    windows.Handle // the holder's, for writing, sharing read only; 0 until locked
	k    fileKey
	o    fileOwner
	path string
	// others is othersMayOpen's answer, from the DACL read at the open.
	others error
}

// openLockFileAt opens the lock file p, read-only and sharing all access
// (see above); when write is set it creates the file if missing, with the
// DACL lockFileSecurity makes of mode. It refuses, before opening and again
// on the handle, anything but a regular file with one link (not a symbolic
// link or junction, opened as itself and never followed, a directory, a
// pipe or device), and a file whose owner is not trusted or whose DACL
// lets another principal write it. Windows opens by the whole path (see
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
	disposition := uint32(windows.OPEN_EXISTING)
	var sd *windows.SECURITY_DESCRIPTOR
	if write {
		disposition = windows.OPEN_ALWAYS
		var err error
		if sd, err = lockFileSecurity(mode); err != nil {
			return nil, err
		}
	}
	deadline := time.Now().Add(deletePendingWait)
	var h windows.Handle
	var err error
	for {
		h, err = sys.createFile(path, windows.GENERIC_READ, shareAll, disposition, lockFileFlags, sd)
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
	f := &winLockFile{h: h, path: path}
	if err := f.check(); err != nil {
		sys.closeHandle(h)
		return nil, err
	}
	if err := inCheckedDir(h, p); err != nil {
		sys.closeHandle(h)
		return nil, err
	}
	return f, nil
}

// lockFileFlags open a lock file: a reparse point as itself, never followed.
const lockFileFlags = windows.FILE_ATTRIBUTE_NORMAL | windows.FILE_FLAG_OPEN_REPARSE_POINT

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

// check refuses an open handle that is not a regular disk file with one
// link, a trusted owner and a DACL that lets no other principal write it,
// and reads the file's key, its owner, and whether others may open it.
func (f *winLockFile) check() error {
	t, err := sys.fileType(f.h)
	if err != nil {
		return &fs.PathError{Op: "GetFileType", Path: f.path, Err: err}
	}
	if t != windows.FILE_TYPE_DISK {
		return fmt.Errorf("%w: not a disk file (type %d)", ErrUnsafePath, t)
	}
	fi, k, err := handleFile(f.h, f.path)
	if err != nil {
		return err
	}
	switch {
	case fi.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		return fmt.Errorf("%w: a symbolic link or junction", ErrUnsafePath)
	case fi.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		return fmt.Errorf("%w: a directory", ErrUnsafePath)
	case fi.NumberOfLinks > 1:
		return fmt.Errorf("%w: has %d hard links: it may be another file's other name", ErrUnsafePath, fi.NumberOfLinks)
	}
	o, err := checkOwner(f.h, f.path, "file")
	if err != nil {
		return err
	}
	if err := checkDACL(f.h, f.path, "file", writeFileRights); err != nil {
		return err
	}
	f.k, f.o = k, o
	if err := checkDACL(f.h, f.path, "file", openFileRights); err != nil {
		f.others = fmt.Errorf("%w, and so hold its lock", err)
	}
	return nil
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

func (f *winLockFile) owner() fileOwner { return f.o }

// tryLock takes the lock, then opens the holder's handle (see openWriter).
func (f *winLockFile) tryLock() error {
	if err := f.lock(windows.LOCKFILE_EXCLUSIVE_LOCK | windows.LOCKFILE_FAIL_IMMEDIATELY); err != nil {
		return err
	}
	if err := f.openWriter(); err != nil {
		f.unlock()
		return err
	}
	return nil
}

// openWriter opens the file again, by its path, for writing, sharing read
// access only. A sharing violation means another handle may write or
// delete it: a holder outside this protocol, or one between its open and
// its lock; the lock then counts as held. If the path no longer names f's
// file, there is no writer: TryAcquire, which checks the path next, starts
// over.
func (f *winLockFile) openWriter() error {
	h, err := sys.createFile(f.path, windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ, windows.OPEN_EXISTING, lockFileFlags, nil)
	switch {
	case errors.Is(err, windows.ERROR_SHARING_VIOLATION):
		return fmt.Errorf("%w: the file is open for writing or deleting elsewhere", errWouldBlock)
	case errors.Is(err, windows.ERROR_FILE_NOT_FOUND), errors.Is(err, windows.ERROR_DELETE_PENDING):
		return nil
	case err != nil:
		return &fs.PathError{Op: "CreateFile", Path: f.path, Err: err}
	}
	if _, k, err := handleFile(h, f.path); err != nil || k != f.k {
		sys.closeHandle(h)
		return err
	}
	f.w = h
	return nil
}

// writer is the holder's handle, which only a holder has.
func (f *winLockFile) writer() (windows.Handle, error) {
	if f.w == 0 {
		return 0, errors.New("the lock is not held")
	}
	return f.w, nil
}

// probeHeld takes the exclusive lock, without the holder's handle, with
// TryAcquire's grace retries, and drops it at once: nothing on Windows
// lists lock holders, and a shared lock would be granted beside another
// shared one, which stops TryAcquire all the same.
func (f *winLockFile) probeHeld(ctx context.Context, pid int) (bool, error) {
	switch _, err := withGrace(func() error {
		return f.lock(windows.LOCKFILE_EXCLUSIVE_LOCK | windows.LOCKFILE_FAIL_IMMEDIATELY)
	}); {
	case errors.Is(err, errWouldBlock):
		return true, nil
	case err != nil:
		return false, err
	}
	return false, f.unlock()
}

// pidHoldsLock: nothing on Windows says which process holds a byte range.
//
//	no process, EPERM, zombie, thread ID: unknown
func pidHoldsLock(ctx context.Context, pid int, k fileKey) (held, known bool, err error) {
	return false, false, nil
}

func (f *winLockFile) othersMayOpen() error { return f.others }

// fresh: a file is made unlocked on Windows, and locked after.
func (f *winLockFile) fresh() bool { return false }

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
	w, err := f.writer()
	if err != nil {
		return 0, &fs.PathError{Op: "WriteFile", Path: f.path, Err: err}
	}
	n := 0
	for n < len(b) {
		m, err := sys.writeAt(w, b[n:], off+int64(n))
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
	w, err := f.writer()
	if err == nil {
		err = sys.truncate(w, size)
	}
	if err != nil {
		return &fs.PathError{Op: "SetFileInformationByHandle", Path: f.path, Err: err}
	}
	return nil
}

func (f *winLockFile) Sync() error {
	w, err := f.writer()
	if err == nil {
		err = sys.flush(w)
	}
	if err != nil {
		return &fs.PathError{Op: "FlushFileBuffers", Path: f.path, Err: err}
	}
	return nil
}

func (f *winLockFile) Close() error {
	return errors.Join(f.closeWriter(), sys.closeHandle(f.h))
}

// closeWriter closes the holder's handle, if open.
func (f *winLockFile) closeWriter() error {
	if f.w == 0 {
		return nil
	}
	err := sys.closeHandle(f.w)
	f.w = 0
	return err
}

// pathKey names the file p names, not following a reparse point.
func pathKey(p lockPath) (fileKey, error) {
	path := p.path
	h, err := sys.createFile(path, 0, shareAll, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, nil)
	if err != nil {
		return fileKey{}, &fs.PathError{Op: "CreateFile", Path: path, Err: err}
	}
	defer sys.closeHandle(h)
	_, k, err := handleFile(h, path)
	return k, err
}

// removeLockFile closes the holder's handle, so that its own handle with
// delete access can open, and marks the file for deletion through that,
// after checking that it is f's file: between the two, the file is still
// locked, but others may remove or replace it. A reader that opened the
// file without sharing delete access (os.Open does not) makes the open
// fail with a sharing violation; the file is then left, which is harmless.
func removeLockFile(f lockFile, p lockPath) error {
	path := p.path
	if wf, ok := f.(interface{ closeWriter() error }); ok {
		wf.closeWriter()
	}
	h, err := sys.createFile(path, windows.DELETE, shareAll, windows.OPEN_EXISTING, lockFileFlags, nil)
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
