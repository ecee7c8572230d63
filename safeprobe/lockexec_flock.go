//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safeprobe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// LockFDEnv is the environment variable Exec sets to the number of the
// descriptor that holds the lock, so that the program can keep it open
// (a daemon that closes every descriptor it did not open would drop the
// lock) and keep it from its own children.
const LockFDEnv = "SAFEPROBE_LOCK_FD"

// Exec replaces the calling process with the program argv0 (as
// syscall.Exec does), which then holds the lock: the descriptor the lock
// is held through is inherited (it is the only one Exec clears
// close-on-exec on), and the owner record stays true, as the process
// keeps its PID, start time, boot, pidfs serial and PID namespace across
// exec. Before the exec the record's program name is rewritten to
// argv0's base name when it names another, and envv gets
// SAFEPROBE_LOCK_FD (LockFDEnv) set to the descriptor's number.
//
// The lock then lives as long as that descriptor: until the program and
// every child it passed the descriptor to have exited (a child inherits it
// unless the program marks it close-on-exec), or the program closes it.
// Other processes see the program as the holder: SignalOwner signals it,
// as its own descriptor holds the lock. A set-user-ID program runs as
// another user than the lock file's owner, and SignalOwner refuses it.
//
// Exec returns only on failure, with the lock still held by this process
// and its descriptor close-on-exec again. It fails with ErrNotHeld if the
// lock was released or its path no longer names the locked file.
func (l *Lock) Exec(argv0 string, argv, envv []string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	fail := func(err error) error { return &LockError{Op: "exec", Path: l.loc.path, Err: err} }
	if l.f == nil {
		return fail(ErrNotHeld)
	}
	f, ok := l.f.(*unixLockFile)
	if !ok {
		return fail(fmt.Errorf("%w: not a file descriptor lock", ErrUnsupported))
	}
	if pk, err := pathKey(l.loc); err != nil || pk != f.key() {
		return fail(fmt.Errorf("%w: the path no longer names the locked file", ErrNotHeld))
	}
	if prog := recordedName(filepath.Base(argv0)); prog != l.owner.Program {
		rec := l.owner
		rec.Program = prog
		if err := writeRecord(f, formatRecord(rec), true); err != nil {
			return fail(fmt.Errorf("rewriting the owner record: %w", err))
		}
		l.owner = rec
	}
	envv = withEnv(envv, LockFDEnv, strconv.Itoa(f.fd))
	// No fork may start while the descriptor is inheritable: its child
	// would keep the lock.
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if _, err := unix.FcntlInt(uintptr(f.fd), unix.F_SETFD, 0); err != nil {
		return fail(fmt.Errorf("clearing close-on-exec: %w", err))
	}
	err := syscall.Exec(argv0, argv, envv)
	if _, cerr := unix.FcntlInt(uintptr(f.fd), unix.F_SETFD, unix.FD_CLOEXEC); cerr != nil {
		err = errors.Join(err, fmt.Errorf("restoring close-on-exec: %w", cerr))
	}
	return fail(&os.PathError{Op: "exec", Path: argv0, Err: err})
}

// withEnv is envv with name set to value, replacing any earlier setting.
func withEnv(envv []string, name, value string) []string {
	out := make([]string, 0, len(envv)+1)
	for _, kv := range envv {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}
