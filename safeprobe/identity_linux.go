package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// lookup is lookupState without the state.
//
//	no process, EPERM, zombie, thread ID: as lookupState
func lookup(pid int) (Identity, error) {
	id, _, err := lookupState(pid)
	return id, err
}

// lookupState reads the whole identity and the state. A /proc of another
// PID namespace, and a process hidepid hides, are ErrUnsupported.
//
//	no process: NotFound, an error matching os.ErrProcessDone
//	EPERM:      the identity (PIDNamespace 0: ns/pid needs ptrace access), Running
//	zombie:     the identity, Zombie
//	thread ID:  NotFound, an error matching os.ErrProcessDone
func lookupState(pid int) (Identity, State, error) {
	return readIdentity(pid, nil)
}

// lookupAgainst reads what Identity.Probe needs to compare with want: the
// PID namespace only when the serials cannot decide, and nothing more once
// the serial differs: then it returns what it has read, Running.
//
//	no process, EPERM, zombie, thread ID: as lookupState
func lookupAgainst(want Identity) (Identity, State, error) {
	return readIdentity(want.PID, &want)
}

// identityRetries bounds how often readIdentity starts again because the
// process exited while it read.
const identityRetries = 3

// readIdentity reads the identity and the state of the process with the
// PID: all of it, or (want non-nil) what tells it from want.
//
// The pidfd names the process throughout: pidfd_open tells a thread
// (ENOENT, or EINVAL on older kernels) from a process, as /proc/<tid>
// resolves too; fstat of the pidfd gives the serial; and a poll after
// /proc was read proves the process was still there when it was, so what
// /proc showed is not a newcomer that took the PID within the same clock
// tick. Otherwise the reading starts again. What /proc said of a serial is
// remembered (serialFacts), so probing the same process again asks only
// its pidfd.
func readIdentity(pid int, want *Identity) (Identity, State, error) {
	if !procIsOurs() {
		return Identity{}, Unknown, fmt.Errorf("safeprobe: identity of process %d: %w", pid, errForeignProc)
	}
	return readIdentityAt(pid, procPath(pid, ""), want)
}

// lookupSelf reads this process's identity through /proc/self, which names
// it whichever PID namespace /proc was mounted from, so long as this
// process is visible there (a container sharing its host's /proc), where
// /proc/<pid> names another process or none.
func lookupSelf() (Identity, error) {
	id, _, err := readIdentityAt(os.Getpid(), "/proc/self/", nil)
	return id, err
}

// readIdentityAt is readIdentity of the process whose /proc directory is
// dir ("/proc/<pid>/", or "/proc/self/" for this process).
func readIdentityAt(pid int, dir string, want *Identity) (Identity, State, error) {
	boot, err := bootID()
	if err != nil {
		return Identity{}, Unknown, err
	}
	for attempt := 0; attempt < identityRetries; attempt++ {
		id, s, settled, err := readIdentityOnce(pid, dir, boot, want)
		if settled {
			return id, s, err
		}
	}
	return Identity{}, Unknown, fmt.Errorf("safeprobe: identity of process %d: its PID kept changing hands while read", pid)
}

func readIdentityOnce(pid int, dir, boot string, want *Identity) (id Identity, s State, settled bool, err error) {
	fail := func(err error) (Identity, State, bool, error) {
		return Identity{}, Unknown, true, fmt.Errorf("safeprobe: identity of process %d: %w", pid, err)
	}
	id = Identity{PID: pid, BootID: boot}
	fd, s, err := openPidfd(pid)
	switch {
	case fd >= 0:
		defer sys.closeFD(fd)
		if id.Serial, err = pidfdSerial(fd); err != nil {
			return fail(err)
		}
		if want != nil && !sameIfBoth(want.Serial, id.Serial) {
			return id, Running, true, nil // another process: Reused
		}
		if f, ok := serialFacts.get(id.Serial); ok {
			id.StartTime, id.PIDNamespace = f.start, f.pidns
			s, err := pidfdState(pid, fd)
			return id, s, true, err
		}
	case s == NotFound:
		return Identity{}, NotFound, true, processDone(pid)
	case err != nil:
		return Identity{}, Unknown, true, err
	}
	// Field 22 can sit past byte 1024 only with a 64-byte command name
	// and huge counters; 2 KiB holds any stat line.
	var buf [2048]byte
	n, err := sys.readFile(dir+"stat", buf[:])
	if procGone(err) {
		if err := sys.kill(pid, 0); err == nil || err == unix.EPERM {
			return fail(fmt.Errorf("hidden from /proc (hidepid?): %w", ErrUnsupported))
		}
		return Identity{}, NotFound, true, processDone(pid)
	}
	if err != nil {
		return fail(err)
	}
	letter, threads, start, err := parseStat(buf[:n])
	if err != nil {
		return fail(err)
	}
	// As the initial time namespace counts it, whichever this process
	// reads from.
	offset, err := bootOffsetTicks()
	if err != nil {
		return fail(err)
	}
	id.StartTime, s = uint64(int64(start)-offset), stateOf(letter, threads)
	if fd < 0 && dir != "/proc/self/" { // this process is no thread of another
		_, tgid, err := readStatus(pid)
		switch {
		case procGone(err):
			return Identity{}, NotFound, true, processDone(pid)
		case err != nil:
			return fail(err)
		case tgid != pid:
			return Identity{}, NotFound, true, processDone(pid) // a thread, not a process
		}
	}
	// The namespace is not worth a stat only to compare an identity
	// recorded without one, unless the serial lets it be remembered.
	if want == nil || want.PIDNamespace != 0 || id.Serial != 0 {
		if id.PIDNamespace, err = pidNamespace(dir); err != nil {
			return fail(err)
		}
	}
	if fd >= 0 && s == Running {
		exited, err := sys.pollIn(fd)
		if err != nil {
			return fail(fmt.Errorf("poll pidfd: %w", err))
		}
		if exited {
			return Identity{}, Unknown, false, nil // /proc may have shown a newcomer
		}
		serialFacts.put(id.Serial, serialFact{id.StartTime, id.PIDNamespace})
	}
	return id, s, true, nil
}

// pidfdState is the state of the process fd names: a zombie (or gone) once
// the pidfd polls readable, running until then.
func pidfdState(pid, fd int) (State, error) {
	exited, err := sys.pollIn(fd)
	switch {
	case err != nil:
		return Unknown, fmt.Errorf("safeprobe: poll pidfd of process %d: %w", pid, err)
	case exited:
		return Zombie, nil
	}
	return Running, nil
}

// serialFacts remembers, by serial, what /proc said of a live process
// that never changes: a serial names one process for the whole boot, so a
// later probe of it needs only its pidfd, not /proc. Bounded: cleared when
// full.
var serialFacts = serialCache{m: map[uint64]serialFact{}}

const maxSerialFacts = 1024

type serialFact struct{ start, pidns uint64 }

type serialCache struct {
	mu sync.Mutex
	m  map[uint64]serialFact
}

func (c *serialCache) get(serial uint64) (serialFact, bool) {
	if serial == 0 {
		return serialFact{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.m[serial]
	return f, ok
}

func (c *serialCache) put(serial uint64, f serialFact) {
	if serial == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxSerialFacts {
		clear(c.m)
	}
	c.m[serial] = f
}

// procGone reports whether a /proc read failed because there is no such
// entry (the process is gone, or hidden by hidepid): any other error, an
// EMFILE say, says nothing about the process.
func procGone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH)
}

// pidfsMagic is the f_type of pidfs (Linux 6.9), where a pidfd's inode
// number names its process uniquely within the boot. Before pidfs, every
// pidfd shares one anonymous inode.
const pidfsMagic = 0x50494446

// onPidfs caches whether pidfds live on pidfs.
var onPidfs knownFact

// pidfdSerial returns the serial of the process fd names: its pidfs inode
// number, or 0 on kernels without pidfs. On 32-bit systems the kernel
// hands out the low 32 bits of the pidfs inode, which wrap after 2^32
// processes.
func pidfdSerial(fd int) (uint64, error) {
	pidfs, known := onPidfs.get()
	if !known {
		var fs unix.Statfs_t
		if err := unix.Fstatfs(fd, &fs); err != nil {
			return 0, fmt.Errorf("fstatfs pidfd: %w", err)
		}
		pidfs = fs.Type == pidfsMagic
		onPidfs.set(pidfs)
	}
	if !pidfs {
		return 0, nil
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, fmt.Errorf("fstat pidfd: %w", err)
	}
	return st.Ino, nil
}

// pidNamespace returns the inode of the PID namespace of the process
// whose /proc directory is dir, or 0 where it may not be read: another
// user's process needs ptrace read access, and kernels without PID
// namespaces have no ns/pid. A process gone meanwhile also gives 0; its
// identity is then caught by the pidfd or the next probe.
func pidNamespace(dir string) (uint64, error) {
	var st unix.Stat_t
	err := unix.Stat(dir+"ns/pid", &st)
	switch {
	case err == nil:
		return st.Ino, nil
	case procGone(err) || err == unix.EACCES || err == unix.EPERM:
		return 0, nil
	}
	return 0, fmt.Errorf("stat %sns/pid: %w", dir, err)
}

// bootIDs holds the boot ID once read: it changes only with a reboot,
// which ends the process.
var bootIDs cached[string]

func bootID() (string, error) { return bootIDs.get(readBootID) }

func readBootID() (string, error) {
	var buf [64]byte
	n, err := sys.readFile("/proc/sys/kernel/random/boot_id", buf[:])
	if err != nil {
		return "", fmt.Errorf("safeprobe: boot id: %w", err)
	}
	id := string(trimSpace(buf[:n]))
	if len(id) != 36 {
		return "", fmt.Errorf("safeprobe: boot id %q: %w", id, errProcFormat)
	}
	return id, nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return b
}

// processUID is the effective user ID the process runs as, from
// /proc/<pid>/status. A /proc of another PID namespace is ErrUnsupported.
//
//	no process: an error matching fs.ErrNotExist, as under hidepid
//	EPERM:      its effective user ID: status is anyone's to read
//	zombie:     its effective user ID, which /proc keeps until it is reaped
//	thread ID:  the thread's effective user ID: callers probe first
func processUID(pid int) (uint32, error) {
	if !procIsOurs() {
		return 0, errForeignProc
	}
	var buf [1024]byte // Uid is the ninth line, after a Name of at most 64 bytes (escaped: 256)
	n, err := sys.readFile(procPath(pid, "status"), buf[:])
	if err != nil {
		return 0, err
	}
	return parseStatusUID(buf[:n])
}
