package safeprobe

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"golang.org/x/sys/unix"
)

// A process's start time in /proc/<pid>/stat is read as the reader's time
// namespace counts it: the boottime offset of the reader's namespace is
// added (Linux 5.6 and later). A daemon started under
// `unshare --time --boottime N` records a start N seconds later than its
// supervisor outside reads, which then took it for a newcomer with its
// PID. Identities hold the start as the initial time namespace counts it:
// the reader takes its own offset out, from /proc/self/timens_offsets.
// That file gives the offsets of the namespace this process's children
// get, which is its own unless it unshared CLONE_NEWTIME and did not fork
// (/proc/self/ns/time and ns/time_for_children then differ): such a
// process reads no identity.

// userHZ is the clock tick of /proc's times (USER_HZ, 100 on every
// architecture Go runs Linux on).
const userHZ = 100

// bootOffsetTicks is this process's boottime offset in clock ticks. It is
// read once it can be (a multithreaded process cannot change its own time
// namespace: setns needs a single thread); a failure to read it (EMFILE,
// say) is not kept.
func bootOffsetTicks() (int64, error) { return bootOffset.get(readBootOffsetTicks) }

var bootOffset cached[int64]

func readBootOffsetTicks() (int64, error) {
	var own, children unix.Stat_t
	err := unix.Stat("/proc/self/ns/time", &own)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, nil // a kernel without time namespaces
	case err != nil:
		return 0, fmt.Errorf("time namespace: %w", err)
	}
	if err := unix.Stat("/proc/self/ns/time_for_children", &children); err != nil {
		return 0, fmt.Errorf("time namespace: %w", err)
	}
	if own.Ino != children.Ino {
		return 0, fmt.Errorf("this process's time namespace is not its children's (it unshared CLONE_NEWTIME), so its boottime offset is unknown: %w", ErrUnsupported)
	}
	var buf [256]byte
	n, err := sys.readFile("/proc/self/timens_offsets", buf[:])
	if err != nil {
		return 0, fmt.Errorf("time namespace: %w", err)
	}
	return parseBootOffset(buf[:n])
}

// parseBootOffset returns the boottime offset, in clock ticks (rounded
// down), from the contents of /proc/<pid>/timens_offsets:
//
//	monotonic           0         0
//	boottime       100000         0
func parseBootOffset(b []byte) (int64, error) {
	for _, line := range bytes.Split(b, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) != 3 || string(f[0]) != "boottime" {
			continue
		}
		sec, err1 := strconv.ParseInt(string(f[1]), 10, 64)
		nsec, err2 := strconv.ParseInt(string(f[2]), 10, 64)
		if err1 != nil || err2 != nil || nsec < 0 || nsec >= 1e9 {
			break
		}
		const nsPerTick = 1e9 / userHZ
		ticks := sec*userHZ + nsec/nsPerTick
		return ticks, nil
	}
	return 0, fmt.Errorf("%w: no boottime line in timens_offsets", errProcFormat)
}
