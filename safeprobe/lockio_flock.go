//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"io"
	"io/fs"
	"runtime"

	"golang.org/x/sys/unix"
)

// The record's reads and writes, on the lock file's descriptor itself.

func (f *unixLockFile) ReadAt(b []byte, off int64) (int, error) {
	return f.whole("read", unix.Pread, b, off, io.EOF)
}

func (f *unixLockFile) WriteAt(b []byte, off int64) (int, error) {
	return f.whole("write", unix.Pwrite, b, off, io.ErrShortWrite)
}

// whole calls rw (pread or pwrite) at off until all of b is done, it fails,
// or it does nothing (the end of the file, or a full disk): then short.
func (f *unixLockFile) whole(op string, rw func(int, []byte, int64) (int, error), b []byte, off int64, short error) (int, error) {
	n := 0
	for n < len(b) {
		m, err := rw(f.fd, b[n:], off+int64(n))
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return n, &fs.PathError{Op: op, Path: f.path, Err: err}
		case m == 0:
			return n, short
		}
		n += m
	}
	return n, nil
}

func (f *unixLockFile) Truncate(size int64) error {
	if err := ignoringEINTR(func() error { return unix.Ftruncate(f.fd, size) }); err != nil {
		return &fs.PathError{Op: "truncate", Path: f.path, Err: err}
	}
	return nil
}

// Sync flushes the record to the disk as (*os.File).Sync does (fsync;
// F_FULLFSYNC on macOS, which fsync alone leaves in the drive's cache).
func (f *unixLockFile) Sync() error {
	if err := ignoringEINTR(func() error { return syncFD(f.fd) }); err != nil {
		return &fs.PathError{Op: "fsync", Path: f.path, Err: err}
	}
	return nil
}

// Close closes the descriptor; a second Close fails with fs.ErrClosed.
func (f *unixLockFile) Close() error {
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.path, Err: fs.ErrClosed}
	}
	fd := f.fd
	f.fd, f.locked = -1, false
	if err := unix.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.path, Err: err}
	}
	return nil
}

// fFullFsync is F_FULLFSYNC, the fcntl that flushes a file to the disk on
// macOS and iOS.
const fFullFsync = 51

// syncFD flushes fd to the disk.
func syncFD(fd int) error {
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		_, err := unix.FcntlInt(uintptr(fd), fFullFsync, 0)
		return err
	}
	return unix.Fsync(fd)
}
